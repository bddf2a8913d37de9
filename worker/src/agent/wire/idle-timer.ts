/**
 * Calls `expire` once `idleMs` pass without a `touch()`. One timer per idle window, not one per
 * touch: a touch only notes the time, and the timer, when it fires early, waits out the rest.
 */
export function idleTimer(idleMs: number, expire: () => void): { touch(): void; stop(): void } {
  let last = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const check = () => {
    const left = last + idleMs - Date.now();
    timer = left > 0 ? setTimeout(check, left) : undefined;
    if (!timer) expire();
  };
  timer = setTimeout(check, idleMs);
  return {
    touch: () => {
      last = Date.now();
    },
    stop: () => {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}
