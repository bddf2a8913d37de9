import { readdirSync, readFileSync } from "node:fs";

/** What /proc says of one process: its command line, parent, CPU milliseconds used and resident memory. */
function stat(pid: number): { ppid: number; cpuMs: number } {
  // The command name (field 2) may hold spaces and parentheses; the fields after its closing one are fixed.
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ").at(-1)!.split(" ");
  // utime and stime (fields 14 and 15) are in clock ticks, 100 a second on Linux.
  return { ppid: Number(fields[1]), cpuMs: (Number(fields[11]) + Number(fields[12])) * 10 };
}

export const cpuMs = (pid: number) => stat(pid).cpuMs;

export function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith("VmRSS:"));
  return Number(line?.match(/(\d+)/)?.[1] ?? 0) / 1024;
}

const commandLine = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ");

/** Every live process descended from `root`, with its command line. */
export function descendants(root: number): Array<{ pid: number; command: string }> {
  const parents = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      parents.set(pid, stat(pid).ppid);
    } catch {
      // exited meanwhile
    }
  }
  const found: Array<{ pid: number; command: string }> = [];
  const within = (pid: number): boolean => pid === root || (parents.has(pid) && pid !== 1 && within(parents.get(pid)!));
  for (const pid of parents.keys()) {
    if (pid === root || !within(pid)) continue;
    try {
      found.push({ pid, command: commandLine(pid) });
    } catch {
      // exited meanwhile
    }
  }
  return found;
}
