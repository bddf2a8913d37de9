import { readFileSync } from "node:fs";
import { processTree } from "./process-tree.ts";

/**
 * How often the tree is read while pages render. A page writing memory as fast as it can gets this
 * long past its cap before its renderer is killed; a read scans every process in /proc (a few ms).
 */
const WATCH_MS = 250;

/** What a watched browser's processes may hold. */
export interface MemoryCaps {
  /** Resident bytes one renderer process (a page, or one of its out-of-process frames) may hold before it is killed. */
  rendererBytes: number;
}

/**
 * Reads a browser's process tree every WATCH_MS until stopped. A renderer holding more than its cap
 * is killed: --max-old-space-size holds only V8's heap, not ArrayBuffers, images or the DOM, and a
 * killed renderer's page crashes, which ends its render cleanly. `read` gets the tree's resident
 * bytes each time, for the browser's own cap.
 */
export function watchMemory(browserPid: number, caps: MemoryCaps, read: (treeBytes: number) => void): { stop(): void } {
  const timer = setInterval(() => {
    let treeBytes = 0;
    for (const { pid, rssBytes } of processTree(browserPid)) {
      treeBytes += rssBytes;
      if (rssBytes > caps.rendererBytes && isRenderer(pid)) kill(pid);
    }
    read(treeBytes);
  }, WATCH_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/** Chromium rewrites its processes' titles: the arguments may be separated by spaces rather than NULs. */
const RENDERER_ARG = /(^|[\0 ])--type=renderer([\0 ]|$)/;

/** Whether a process is one of Chromium's renderers, read right before it is killed (so a pid reused since the tree was read is left alone). */
function isRenderer(pid: number): boolean {
  try {
    return RENDERER_ARG.test(readFileSync(`/proc/${pid}/cmdline`, "latin1"));
  } catch {
    return false;
  }
}

function kill(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // Gone already.
  }
}
