import { readdirSync, readFileSync } from "node:fs";

/** Linux reports RSS in pages; every platform this runs on (x86-64, arm64 Debian) uses 4 KiB pages. */
const PAGE_BYTES = 4096;

/** One process of a tree and its resident bytes. */
export interface TreeProcess {
  pid: number;
  rssBytes: number;
}

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
 * A process and all its descendants (Chromium's renderers, GPU and utility processes) with their
 * resident bytes, read from /proc; empty where there is no /proc or the process is gone. Shared
 * pages count in each process that maps them.
 */
export function processTree(rootPid: number): TreeProcess[] {
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
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
  if (!rss.has(rootPid)) return [];
  const tree: TreeProcess[] = [];
  const pending = [rootPid];
  const seen = new Set<number>();
  while (pending.length > 0) {
    const pid = pending.pop()!;
    if (seen.has(pid)) continue;
    seen.add(pid);
    tree.push({ pid, rssBytes: (rss.get(pid) ?? 0) * PAGE_BYTES });
    pending.push(...(children.get(pid) ?? []));
  }
  return tree;
}
