import { fail, type LimiterOutcome } from "@edge-web/shared";

/** Render slots shared between sessions (opaque keys). */
export interface SessionSlots {
  /** Runs `task` once a slot is free for `session`; refused when the queue is full, or when `signal` fires while it waits. */
  run<T>(session: string, task: () => Promise<T>, signal?: AbortSignal): Promise<LimiterOutcome<T>>;
}

interface Waiter {
  session: string;
  start(): void;
}

/**
 * `slots` tasks at once, no session holding more than half of them (at least one), with one
 * bounded queue. A freed slot goes to the waiting session with the fewest tasks running, and
 * between those to the one whose last start is oldest (one that never started first), then in
 * order of arrival: a session with many pages takes turns with the others instead of going ahead
 * of them. A page in a busy loop holds its slot to its deadline, so without these bounds one
 * session's pages could hold every slot while another's wait out their deadlines.
 */
export function createSessionSlots(options: { slots: number; maxQueue: number }): SessionSlots {
  const { slots, maxQueue } = options;
  const perSession = Math.max(1, Math.floor(slots / 2));
  const running = new Map<string, number>();
  /** When each session with tasks running or waiting last started one (a count of starts), for taking turns. */
  const lastStart = new Map<string, number>();
  const queue: Waiter[] = [];
  let active = 0;
  let starts = 0;

  const hasRoom = (session: string) => active < slots && (running.get(session) ?? 0) < perSession;
  const acquire = (session: string) => {
    active++;
    running.set(session, (running.get(session) ?? 0) + 1);
    lastStart.set(session, ++starts);
  };
  /** The next waiter to start: fewest running, then longest since its session's last start, then first come. */
  const next = (): Waiter | undefined => {
    let best: Waiter | undefined;
    const rank = (waiter: Waiter) => [running.get(waiter.session) ?? 0, lastStart.get(waiter.session) ?? 0] as const;
    for (const waiter of queue) {
      if (!hasRoom(waiter.session)) continue;
      if (!best) {
        best = waiter;
        continue;
      }
      const [runs, last] = rank(waiter);
      const [bestRuns, bestLast] = rank(best);
      if (runs < bestRuns || (runs === bestRuns && last < bestLast)) best = waiter;
    }
    return best;
  };
  const forgetIfIdle = (session: string) => {
    if ((running.get(session) ?? 0) > 0 || queue.some((waiter) => waiter.session === session)) return;
    running.delete(session);
    lastStart.delete(session);
  };
  const release = (session: string) => {
    active--;
    running.set(session, (running.get(session) ?? 1) - 1);
    forgetIfIdle(session);
    // Slots are taken here, synchronously, so no later arrival can slip in ahead of a waiter.
    for (let waiter = next(); waiter; waiter = next()) {
      queue.splice(queue.indexOf(waiter), 1);
      acquire(waiter.session);
      waiter.start();
    }
  };

  /** Resolves true once a slot is held for `session`, false if `signal` fired while waiting. */
  const waitForSlot = (session: string, signal?: AbortSignal) =>
    new Promise<boolean>((resolve) => {
      const leave = () => {
        queue.splice(queue.indexOf(waiter), 1);
        forgetIfIdle(session);
        resolve(false);
      };
      const waiter: Waiter = {
        session,
        start() {
          signal?.removeEventListener("abort", leave);
          resolve(true);
        },
      };
      queue.push(waiter);
      signal?.addEventListener("abort", leave, { once: true });
    });

  return {
    async run(session, task, signal) {
      if (signal?.aborted) return fail("aborted", "The task was cancelled before it started.");
      if (hasRoom(session)) acquire(session);
      else if (queue.length >= maxQueue) return fail("queue-full", `All ${slots} render slots are taken and ${queue.length} pages wait.`);
      else if (!(await waitForSlot(session, signal))) return fail("aborted", "The task was cancelled while it waited for a slot.");
      try {
        return { ok: true, value: await task() };
      } finally {
        release(session);
      }
    },
  };
}
