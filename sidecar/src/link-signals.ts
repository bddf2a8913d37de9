/** A signal that follows others, and the call that stops it following them. */
export interface LinkedSignal {
  readonly signal: AbortSignal;
  /** Takes its listeners off the sources: call it once the work the signal guards is over. */
  unlink(): void;
}

/**
 * A signal that aborts, with the source's reason, as soon as any of `sources` does: what
 * AbortSignal.any() does, from a plain controller instead. Node keeps an AbortSignal.any() signal
 * that aborts while it has a listener in a set it never leaves (nodejs/node#64476), and with it all
 * its abort reason's stack reaches, up to a request's whole answer: a sidecar that made one per
 * call grew by every call whose work was aborted or whose caller's signal fired after the answer.
 */
export function linkSignals(sources: ReadonlyArray<AbortSignal | undefined>): LinkedSignal {
  const present = sources.filter((source): source is AbortSignal => source !== undefined);
  if (present.length === 1) return { signal: present[0]!, unlink: () => {} };
  const controller = new AbortController();
  const fired = present.find((source) => source.aborted);
  if (fired) {
    controller.abort(fired.reason);
    return { signal: controller.signal, unlink: () => {} };
  }
  const unlink = () => {
    for (const source of present) source.removeEventListener("abort", follow);
  };
  function follow(event: Event) {
    unlink();
    controller.abort((event.target as AbortSignal).reason);
  }
  for (const source of present) source.addEventListener("abort", follow, { once: true });
  return { signal: controller.signal, unlink };
}
