import { fail, type Deadline, type Result, type Semaphore } from "@edge-web/shared";

/** Why a call's task did not get a slot: the session's queue was full, its deadline passed, or it was cancelled. */
export type SlotRefusal = "queue-full" | "timeout" | "cancelled";

/** One tool call's share of its session's slots, within the call's deadline. */
export interface CallSlots {
  readonly deadline: Deadline;
  /** The caller's cancellation, without the deadline (downstream answers their own timeouts). */
  readonly cancel?: AbortSignal;
  /** Runs `task` on a free slot; waiting ends at the deadline or on cancellation. */
  run<T>(task: () => Promise<T>): Promise<Result<T, SlotRefusal>>;
}

/**
 * The first task of a call must find room in the session's queue (web.concurrency.maxQueueSize):
 * a full queue fails the call at once. Its later tasks wait whatever the queue holds, so a call
 * with many URLs never crowds out itself.
 */
export function callSlots(limiter: Semaphore, deadline: Deadline, cancel?: AbortSignal): CallSlots {
  const signal = cancel ? AbortSignal.any([cancel, deadline.signal]) : deadline.signal;
  let admitted = false;
  return {
    deadline,
    ...(cancel && { cancel }),
    async run(task) {
      const pending = limiter.run(task, { signal, admitted });
      admitted = true;
      const outcome = await pending;
      if (outcome.ok) return outcome;
      if (outcome.error.code === "queue-full") return fail("queue-full", outcome.error.message);
      if (!cancel?.aborted && deadline.remainingMs() === 0) return fail("timeout", `waited ${deadline.elapsedMs()} ms for a free slot`);
      return fail("cancelled", "the call was cancelled");
    },
  };
}
