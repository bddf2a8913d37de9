import type { Browser } from "playwright-core";
import { processTreeRssBytes } from "./process-tree-rss.ts";
import { watchMemory, type MemoryCaps } from "./watch-memory.ts";

export interface BrowserPoolLimits {
  /** Pages one browser renders before new pages go to a fresh one (SIDECAR_RENDER_MAX_PAGES). */
  maxPages: number;
  /** Resident bytes of the browser's process tree past which new pages go to a fresh one (SIDECAR_RENDER_MAX_RSS_MB). */
  maxRssBytes: number;
}

/** A browser lent to one page; release it when the page is done. */
export interface BrowserLease {
  browser: Browser;
  /** Sends new pages to a fresh browser: this one closes once its pages are done. */
  retire(): void;
  release(): void;
}

export interface BrowserPool {
  lease(): Promise<BrowserLease>;
  /** Browsers started after the first (after a crash, N pages, or too much memory); browsers up now (a retired one until its last page ends) and their resident bytes. */
  stats(): { restarts: number; browsers: number; rssBytes: number };
  close(): Promise<void>;
}

/** One browser process and the pages it has taken. */
interface Generation {
  started: Promise<Browser>;
  /** Known once the browser is up (undefined where Chromium cannot say). */
  pid?: number;
  pages: number;
  active: number;
  retired: boolean;
  closing?: Promise<void>;
  /** Its memory as last read, and when (Date.now()): a burst of pages or health checks reads it once. */
  rss: { bytes: number; at: number };
  /** Reads its memory while it has pages (watch-memory.ts). */
  watch?: { stop(): void };
}

/**
 * Reading a process tree's memory scans every process in /proc, synchronously: it is read at most
 * this often (after pages, for /healthz), not each time it is asked for.
 */
const RSS_CHECK_MS = 2_000;

/**
 * Browsers that are retired rather than killed: after `maxPages` pages, when their process tree
 * holds more than `maxRssBytes`, or when they crash, new pages get a new browser while the pages
 * still running on the old one finish there; the old one closes when its last page is done. While a
 * browser has pages its memory is watched: a renderer over `rendererBytes` is killed (its page
 * fails), and a tree over `maxRssBytes` is retired then rather than when a page ends.
 */
export function createBrowserPool(launch: () => Promise<Browser>, limits: BrowserPoolLimits & MemoryCaps): BrowserPool {
  let current: Generation | undefined;
  const live = new Set<Generation>();
  let launches = 0;

  const closeWhenIdle = (gen: Generation) => {
    if (!gen.retired || gen.active > 0 || gen.closing) return;
    gen.closing = gen.started.then(
      (browser) => browser.close().catch(() => {}),
      () => {},
    ).finally(() => live.delete(gen));
  };
  const retire = (gen: Generation) => {
    if (current === gen) current = undefined;
    gen.retired = true;
    closeWhenIdle(gen);
  };
  /** Watches a browser's memory from its first page in flight to its last. */
  const watchWhileBusy = (gen: Generation) => {
    if (gen.active > 0 && !gen.watch && gen.pid !== undefined) {
      gen.watch = watchMemory(gen.pid, limits, (bytes) => {
        gen.rss = { bytes, at: Date.now() };
        if (bytes > limits.maxRssBytes) retire(gen);
      });
    } else if (gen.active === 0 && gen.watch) {
      gen.watch.stop();
      gen.watch = undefined;
    }
  };
  const rssOf = (gen: Generation) => {
    if (gen.pid !== undefined && Date.now() - gen.rss.at >= RSS_CHECK_MS) gen.rss = { bytes: processTreeRssBytes(gen.pid), at: Date.now() };
    return gen.rss.bytes;
  };

  const start = (): Generation => {
    launches++;
    const gen: Generation = { pages: 0, active: 0, retired: false, started: undefined!, rss: { bytes: 0, at: 0 } };
    gen.started = launch().then(async (browser) => {
      browser.on("disconnected", () => retire(gen));
      gen.pid = await browserPid(browser);
      return browser;
    });
    // A launch that failed is forgotten at once: the next page tries again.
    gen.started.catch(() => retire(gen));
    live.add(gen);
    return gen;
  };

  return {
    async lease() {
      const gen = (current ??= start());
      gen.pages++;
      gen.active++;
      if (gen.pages >= limits.maxPages) retire(gen);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        gen.active--;
        watchWhileBusy(gen);
        if (gen.retired) return closeWhenIdle(gen);
        if (rssOf(gen) > limits.maxRssBytes) retire(gen);
      };
      try {
        const browser = await gen.started;
        watchWhileBusy(gen);
        return { browser, retire: () => retire(gen), release };
      } catch (error) {
        release();
        throw error;
      }
    },
    stats() {
      let rssBytes = 0;
      for (const gen of live) rssBytes += rssOf(gen);
      return { restarts: Math.max(0, launches - 1), browsers: live.size, rssBytes };
    },
    async close() {
      for (const gen of live) {
        gen.active = 0;
        watchWhileBusy(gen);
        retire(gen);
      }
      await Promise.all([...live].map((gen) => gen.closing));
    },
  };
}

/** The browser's own process id, from Chromium's SystemInfo domain; undefined where it cannot say. */
async function browserPid(browser: Browser): Promise<number | undefined> {
  try {
    const cdp = await browser.newBrowserCDPSession();
    const info = (await cdp.send("SystemInfo.getProcessInfo")) as { processInfo: Array<{ type: string; id: number }> };
    await cdp.detach().catch(() => {});
    return info.processInfo.find((p) => p.type === "browser")?.id;
  } catch {
    return undefined;
  }
}
