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
  const start = Date.now();
  return {
    budgetMs,
    signal: AbortSignal.timeout(Math.max(0, budgetMs)),
    remainingMs: () => Math.max(0, start + budgetMs - Date.now()),
    elapsedMs: () => Date.now() - start,
  };
}
