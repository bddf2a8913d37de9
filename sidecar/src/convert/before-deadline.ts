/** What beforeDeadline answers when the deadline came first. */
export const TIMED_OUT: unique symbol = Symbol("timed out");

/**
 * The work's value, or TIMED_OUT once Date.now() reaches deadlineMs. The work itself is not stopped (the
 * libraries have no way to cancel); the caller releases what it holds.
 */
export async function beforeDeadline<T>(work: Promise<T>, deadlineMs: number): Promise<T | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), Math.max(0, deadlineMs - Date.now()));
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
