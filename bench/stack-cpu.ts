import { cpuMs } from "../test-support/process-stats.ts";
import type { Stack } from "../test-support/stack.ts";

/**
 * CPU milliseconds the stack's worker (workerd: the worker and its session objects) and sidecar
 * processes spend from now on, read from /proc; `perCall(n)` divides what was spent by `n` calls.
 */
export function stackCpu(stack: Stack) {
  const pids = stack.pids();
  const start = { worker: cpuMs(pids.worker), sidecar: cpuMs(pids.sidecar) };
  return {
    perCall(calls: number) {
      const per = (now: number, then: number) => +((now - then) / calls).toFixed(2);
      return { workerMs: per(cpuMs(pids.worker), start.worker), sidecarMs: per(cpuMs(pids.sidecar), start.sidecar) };
    },
  };
}

/** CPU milliseconds this process spends in `task` (user + system). */
export async function ownCpu(task: () => Promise<void>): Promise<number> {
  const before = process.cpuUsage();
  await task();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}
