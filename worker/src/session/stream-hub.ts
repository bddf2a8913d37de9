import { SSE_KEEP_ALIVE } from "@edge-web/shared";

export interface StreamHub {
  /** A new subscriber's stream, starting with `initial` (replayed frames), then live frames. */
  subscribe(initial: readonly string[], heartbeatMs: number): ReadableStream<Uint8Array>;
  /** Sends to every subscriber; never waits for any of them. */
  broadcast(text: string): void;
  /** Sends `last` to every subscriber and closes their streams. */
  closeAll(last: string): void;
  size(): number;
}

interface Subscriber {
  writer: WritableStreamDefaultWriter<Uint8Array>;
  /** Frames written but not yet taken by the client. */
  pending: number;
  /** Its replayed frames, allowed on top of the live limit. */
  allowance: number;
  heartbeat: ReturnType<typeof setInterval>;
}

const encoder = new TextEncoder();

/**
 * Fan-out of SSE text to many subscribers. Each subscriber has its own bounded queue: one that falls
 * more than `maxPending` frames behind is told so (`overflowText`) and dropped, so a slow reader
 * never holds up the others or the tool calls that produce frames.
 */
export function createStreamHub(options: { maxPending: number; overflowText: () => string }): StreamHub {
  const subscribers = new Set<Subscriber>();

  const drop = (sub: Subscriber, last?: string) => {
    if (!subscribers.delete(sub)) return;
    clearInterval(sub.heartbeat);
    if (last) sub.writer.write(encoder.encode(last)).catch(() => {});
    sub.writer.close().catch(() => {});
  };

  const send = (sub: Subscriber, text: string) => {
    if (sub.pending >= options.maxPending + sub.allowance) return drop(sub, options.overflowText());
    sub.pending++;
    sub.writer.write(encoder.encode(text)).then(
      () => sub.pending--,
      () => drop(sub),
    );
  };

  return {
    subscribe(initial, heartbeatMs) {
      // Each write settles when the client has taken it, so `pending` counts what it has not read.
      const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
      const sub: Subscriber = {
        writer: writable.getWriter(),
        pending: 0,
        // Replayed frames are bounded by the replay buffer; only live frames count against the limit.
        allowance: initial.length,
        heartbeat: setInterval(() => send(sub, SSE_KEEP_ALIVE), heartbeatMs),
      };
      subscribers.add(sub);
      sub.writer.closed.catch(() => drop(sub));
      for (const text of initial) send(sub, text);
      return readable;
    },
    broadcast(text) {
      for (const sub of subscribers) send(sub, text);
    },
    closeAll(last) {
      for (const sub of [...subscribers]) drop(sub, last);
    },
    size: () => subscribers.size,
  };
}
