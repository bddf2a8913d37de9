export type LimiterOutcome<T> = { ok: true; value: T } | { ok: false; reason: "queue-full" | "aborted" };

interface Waiter {
  host: string;
  start(): void;
}

/**
 * A global concurrency cap plus a per-host cap, with one bounded FIFO queue. A waiter starts as soon
 * as both caps allow it; waiters for a saturated host do not hold up those for other hosts.
 */
export interface HostLimiter {
  run<T>(host: string, task: (signal?: AbortSignal) => Promise<T>, signal?: AbortSignal): Promise<LimiterOutcome<T>>;
  stats(): { active: number; queued: number };
}

export function createHostLimiter(options: { maxConcurrent: number; maxPerHost: number; maxQueue: number }): HostLimiter {
  const { maxConcurrent, maxPerHost, maxQueue } = options;
  const perHost = new Map<string, number>();
  const queue: Waiter[] = [];
  let active = 0;

  const hasRoom = (host: string) => active < maxConcurrent && (perHost.get(host) ?? 0) < maxPerHost;
  const acquire = (host: string) => {
    active++;
    perHost.set(host, (perHost.get(host) ?? 0) + 1);
  };
  const release = (host: string) => {
    active--;
    const left = (perHost.get(host) ?? 1) - 1;
    if (left === 0) perHost.delete(host);
    else perHost.set(host, left);
    // Slots are taken here, synchronously, so no later arrival can slip in ahead of a waiter.
    for (let i = 0; i < queue.length && active < maxConcurrent; ) {
      const waiter = queue[i]!;
      if (!hasRoom(waiter.host)) {
        i++;
        continue;
      }
      queue.splice(i, 1);
      acquire(waiter.host);
      waiter.start();
    }
  };

  /** Resolves true once a slot is held for `host`, false if `signal` fired while waiting. */
  const waitForSlot = (host: string, signal?: AbortSignal) =>
    new Promise<boolean>((resolve) => {
      const leave = () => {
        queue.splice(queue.indexOf(waiter), 1);
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
    async run(host, task, signal) {
      if (signal?.aborted) return { ok: false, reason: "aborted" };
      if (hasRoom(host)) acquire(host);
      else if (queue.length >= maxQueue) return { ok: false, reason: "queue-full" };
      else if (!(await waitForSlot(host, signal))) return { ok: false, reason: "aborted" };
      try {
        return { ok: true, value: await task(signal) };
      } finally {
        release(host);
      }
    },
    stats: () => ({ active, queued: queue.length }),
  };
}
