import type { LimiterOutcome, RunOptions } from "./host-limiter.ts";
import { fail } from "./result.ts";

/**
 * A concurrency cap with one bounded queue, in arrival order: a task runs as soon as fewer than
 * `maxConcurrent` run, else waits (a full queue refuses it at once), and a slot a task frees goes
 * straight to the first waiter. A session's tool calls share one.
 */
export interface Semaphore {
  run<T>(task: (signal?: AbortSignal) => Promise<T>, options?: RunOptions): Promise<LimiterOutcome<T>>;
  stats(): { active: number; queued: number };
}

export function createSemaphore(options: { maxConcurrent: number; maxQueue: number }): Semaphore {
  const { maxConcurrent, maxQueue } = options;
  /** The waiters' starts, first come first. */
  const queue: Array<() => void> = [];
  let active = 0;

  /** The freed slot passes to the first waiter (no later arrival can slip in ahead of it), else it is free. */
  const release = () => {
    const next = queue.shift();
    if (next) next();
    else active--;
  };

  /** Resolves true once the slot is handed over, false if `signal` fired while waiting. */
  const handedOver = (signal?: AbortSignal) =>
    new Promise<boolean>((resolve) => {
      const start = () => {
        signal?.removeEventListener("abort", leave);
        resolve(true);
      };
      const leave = () => {
        queue.splice(queue.indexOf(start), 1);
        resolve(false);
      };
      queue.push(start);
      signal?.addEventListener("abort", leave, { once: true });
    });

  return {
    async run(task, { signal, admitted = false } = {}) {
      if (signal?.aborted) return fail("aborted", "The task was cancelled before it started.");
      if (active < maxConcurrent) active++;
      else if (!admitted && queue.length >= maxQueue) return fail("queue-full", `All ${maxConcurrent} slots are taken and ${queue.length} tasks wait.`);
      else if (!(await handedOver(signal))) return fail("aborted", "The task was cancelled while it waited for a slot.");
      try {
        return { ok: true, value: await task(signal) };
      } finally {
        release();
      }
    },
    stats: () => ({ active, queued: queue.length }),
  };
}
