import { readdirSync, readFileSync } from "node:fs";

/** Linux reports RSS in pages; every platform this runs on (x86-64, arm64 Debian) uses 4 KiB pages. */
const PAGE_BYTES = 4096;

/** The parent and resident pages of one process from /proc/<pid>/stat, or undefined once it is gone. */
function readStat(pid: string): { ppid: number; rssPages: number } | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "latin1");
  } catch {
    return undefined;
  }
  // The command name is in parentheses and may hold spaces or parentheses itself: fields follow the last ")".
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { ppid: Number(fields[1]), rssPages: Number(fields[21]) };
}

/**
 * Resident bytes of a process and all its descendants (Chromium's renderers, GPU and utility
 * processes), read from /proc; 0 where there is no /proc or the process is gone. Shared pages count
 * in each process, so this is an upper bound of what the tree holds.
 */
export function processTreeRssBytes(rootPid: number): number {
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return 0;
  }
  const children = new Map<number, number[]>();
  const rss = new Map<number, number>();
  for (const pid of pids) {
    const stat = readStat(pid);
    if (!stat) continue;
    rss.set(Number(pid), stat.rssPages);
    const siblings = children.get(stat.ppid);
    if (siblings) siblings.push(Number(pid));
    else children.set(stat.ppid, [Number(pid)]);
  }
  if (!rss.has(rootPid)) return 0;
  let pages = 0;
  const pending = [rootPid];
  const seen = new Set<number>();
  while (pending.length > 0) {
    const pid = pending.pop()!;
    if (seen.has(pid)) continue;
    seen.add(pid);
    pages += rss.get(pid) ?? 0;
    pending.push(...(children.get(pid) ?? []));
  }
  return pages * PAGE_BYTES;
}
