import { fail, type Result } from "./result.ts";

/** Why a task did not run: the queue was full when it arrived, or its signal fired while it waited. */
export type LimiterRefusal = "queue-full" | "aborted";
export type LimiterOutcome<T> = Result<T, LimiterRefusal>;

export interface RunOptions {
  /** Fires while waiting: the task is dropped from the queue. It is also handed to the task. */
  signal?: AbortSignal;
  /**
   * The task belongs to a call that was already let in (its first task passed the queue bound), so
   * it waits whatever the queue holds: a call's own tasks never crowd out the call itself.
   */
  admitted?: boolean;
}

interface Waiter {
  host: string;
  start(): void;
}

/**
 * A global concurrency cap plus a per-host cap, with one bounded queue. A waiter starts as soon as
 * both caps allow it; waiters for a saturated host do not hold up those for other hosts. In arrival
 * order, or with `fair`, taking turns: a freed slot goes to the waiting host with the fewest tasks
 * running, then to the one whose last start is oldest (one that never started first), then first
 * come — a host with many tasks takes turns with the others instead of going ahead of them.
 */
export interface HostLimiter {
  run<T>(host: string, task: (signal?: AbortSignal) => Promise<T>, options?: RunOptions): Promise<LimiterOutcome<T>>;
  stats(): { active: number; queued: number };
}

export function createHostLimiter(options: { maxConcurrent: number; maxPerHost: number; maxQueue: number; fair?: boolean }): HostLimiter {
  const { maxConcurrent, maxPerHost, maxQueue, fair = false } = options;
  const perHost = new Map<string, number>();
  /** With `fair`: when each host with tasks running or waiting last started one (a count of starts). */
  const lastStart = new Map<string, number>();
  const queue: Waiter[] = [];
  let active = 0;
  let starts = 0;

  const hasRoom = (host: string) => active < maxConcurrent && (perHost.get(host) ?? 0) < maxPerHost;
  const acquire = (host: string) => {
    active++;
    perHost.set(host, (perHost.get(host) ?? 0) + 1);
    if (fair) lastStart.set(host, ++starts);
  };
  const forgetIfIdle = (host: string) => {
    if (fair && !perHost.has(host) && !queue.some((waiter) => waiter.host === host)) lastStart.delete(host);
  };
  const rank = (waiter: Waiter) => [perHost.get(waiter.host) ?? 0, lastStart.get(waiter.host) ?? 0] as const;
  /** The index of the next waiter to start, or -1: the first with room, or with `fair` the best ranked. */
  const next = () => {
    let best = -1;
    for (let i = 0; i < queue.length; i++) {
      if (!hasRoom(queue[i]!.host)) continue;
      if (!fair) return i;
      if (best < 0) {
        best = i;
        continue;
      }
      const [runs, last] = rank(queue[i]!);
      const [bestRuns, bestLast] = rank(queue[best]!);
      if (runs < bestRuns || (runs === bestRuns && last < bestLast)) best = i;
    }
    return best;
  };
  const release = (host: string) => {
    active--;
    const left = (perHost.get(host) ?? 1) - 1;
    if (left === 0) perHost.delete(host);
    else perHost.set(host, left);
    forgetIfIdle(host);
    // Slots are taken here, synchronously, so no later arrival can slip in ahead of a waiter.
    for (let i = next(); i >= 0; i = next()) {
      const [waiter] = queue.splice(i, 1);
      acquire(waiter!.host);
      waiter!.start();
    }
  };

  /** Resolves true once a slot is held for `host`, false if `signal` fired while waiting. */
  const waitForSlot = (host: string, signal?: AbortSignal) =>
    new Promise<boolean>((resolve) => {
      const leave = () => {
        queue.splice(queue.indexOf(waiter), 1);
        forgetIfIdle(host);
        resolve(false);
      };
      const waiter: Waiter = {
        host,
        start() {
          signal?.removeEventListener("abort", leave);
          resolve(true);
        },
      };
      queue.push(waiter);
      signal?.addEventListener("abort", leave, { once: true });
    });

  return {
    async run(host, task, { signal, admitted = false } = {}) {
      if (signal?.aborted) return fail("aborted", "The task was cancelled before it started.");
      if (hasRoom(host)) acquire(host);
      else if (!admitted && queue.length >= maxQueue) return fail("queue-full", `All ${maxConcurrent} slots are taken and ${queue.length} tasks wait.`);
      else if (!(await waitForSlot(host, signal))) return fail("aborted", "The task was cancelled while it waited for a slot.");
      try {
        return { ok: true, value: await task(signal) };
      } finally {
        release(host);
      }
    },
    stats: () => ({ active, queued: queue.length }),
  };
}
