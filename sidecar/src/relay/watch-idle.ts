/**
 * The chunks as they come, with `onIdle` called when the source keeps the next one waiting longer
 * than `idleMs`. Only the wait for the source counts: a slow reader downstream is not the source's
 * silence. A reader that stops early releases the source.
 */
export async function* watchIdle(chunks: AsyncIterable<Uint8Array>, idleMs: number, onIdle: () => void): AsyncGenerator<Uint8Array> {
  const iterator = chunks[Symbol.asyncIterator]();
  let finished = false;
  try {
    for (;;) {
      const timer = setTimeout(onIdle, idleMs);
      let next: IteratorResult<Uint8Array>;
      try {
        next = await iterator.next();
      } finally {
        clearTimeout(timer);
      }
      if (next.done) {
        finished = true;
        return;
      }
      yield next.value;
    }
  } finally {
    if (!finished) await iterator.return?.();
  }
}
