/** How long `waitFor` keeps asking, and how often. */
export interface WaitOptions {
  timeoutMs?: number;
  intervalMs?: number;
}

/**
 * Polls `predicate` until it gives a truthy value and returns that value; throws, naming `what`,
 * when `timeoutMs` passes first. A predicate that throws fails the wait at once. Plain timers only,
 * so it runs in Node and in workerd alike.
 */
export async function waitFor<T>(
  predicate: () => T | Promise<T>,
  what: string,
  { timeoutMs = 5_000, intervalMs = 25 }: WaitOptions = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await predicate();
    if (value) return value as NonNullable<T>;
    if (Date.now() >= deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
