import { readdirSync, readFileSync } from "node:fs";

/** Resident set size of `pid` in MB, from /proc/<pid>/status (VmRSS). */
export function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith("VmRSS:"));
  if (!line) throw new Error(`no VmRSS for process ${pid}`);
  return +(Number(line.split(/\s+/)[1]) / 1024).toFixed(1);
}

interface Proc {
  pid: number;
  ppid: number;
  args: string[];
}

function processes(): Proc[] {
  const found: Proc[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The command name may hold spaces and parentheses; the parent pid follows the last ")".
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const args = readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0").filter(Boolean);
      found.push({ pid: Number(name), ppid, args });
    } catch {
      // the process ended while the table was read
    }
  }
  return found;
}

function descendants(root: number): Proc[] {
  const all = processes();
  const out: Proc[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const proc of all.filter((p) => p.ppid === parent)) {
      out.push(proc);
      queue.push(proc.pid);
    }
  }
  return out;
}

/**
 * The stack's two measured processes among the descendants of `root` (the `npm start` process):
 * the sidecar's node process, and the workerd process running the user worker. Under `wrangler dev`
 * there are two workerd processes, the development proxy (listening on the public `port`) and the
 * user worker; served by workerd directly there is only the one.
 */
export function stackProcesses(root: number, port: number): { worker: number; sidecar: number } {
  const tree = descendants(root);
  const sidecar = tree.find((p) => p.args.some((a) => a.endsWith("sidecar/src/main.ts")));
  const workerds = tree.filter((p) => p.args[0]?.endsWith("/workerd"));
  const worker = workerds.length === 1 ? workerds[0] : workerds.find((p) => !p.args.some((a) => a.startsWith("--socket-addr=") && a.endsWith(`:${port}`)));
  if (!sidecar || !worker) throw new Error(`the stack's processes were not found under ${root} (sidecar ${sidecar?.pid}, workerd ${workerds.map((p) => p.pid)})`);
  return { worker: worker.pid, sidecar: sidecar.pid };
}
