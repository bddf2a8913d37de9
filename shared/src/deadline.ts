/** When a piece of work must be done by, and the signal that fires then. */
export interface Deadline {
  /** The whole budget, in milliseconds. */
  readonly budgetMs: number;
  readonly signal: AbortSignal;
  /** Milliseconds left, never below 0. */
  remainingMs(): number;
  /** Milliseconds since the deadline was set. */
  elapsedMs(): number;
}

/** A deadline `budgetMs` from now. */
export function deadlineIn(budgetMs: number): Deadline {
  return deadlineFrom(Date.now(), budgetMs);
}

/**
 * A deadline `budgetMs` after `start` (epoch milliseconds), which may be past: the time a call spent
 * before this point (in queues, waiting for CPU) counts against it. One already passed has its
 * signal aborted and 0 ms left. With `reserveMs`, the work ends that much before the budget does
 * (never by more than a quarter of it), so that its answer can still travel back in time; the
 * budget and the time elapsed stay the call's own.
 */
export function deadlineFrom(start: number, budgetMs: number, reserveMs = 0): Deadline {
  const end = start + budgetMs - Math.min(reserveMs, Math.floor(budgetMs / 4));
  const left = end - Date.now();
  return {
    budgetMs,
    // A timeout of 0 would fire only on a later turn; a deadline already passed is aborted now.
    signal: left > 0 ? AbortSignal.timeout(left) : AbortSignal.abort(new DOMException("The deadline has passed.", "TimeoutError")),
    remainingMs: () => Math.max(0, end - Date.now()),
    elapsedMs: () => Date.now() - start,
  };
}
