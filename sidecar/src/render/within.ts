/** The promise's value, or undefined once `ms` have passed, it rejects, or `stop` fires (a page busy in a loop never answers). */
export function within<T>(promise: Promise<T>, ms: number, stop?: AbortSignal): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  let stopped: () => void = () => {};
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), Math.max(0, ms));
    stopped = () => resolve(undefined);
    stop?.addEventListener("abort", stopped, { once: true });
  });
  return Promise.race([promise.catch(() => undefined), timeout]).finally(() => {
    clearTimeout(timer);
    stop?.removeEventListener("abort", stopped);
  });
}
