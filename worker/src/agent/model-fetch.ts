import { EgressRefusedError } from "../egress-refused-error.ts";

/** The model sent nothing for the configured time (settings.agent.modelTimeoutMs). */
export class ModelTimeoutError extends Error {
  override readonly name = "ModelTimeoutError";
  readonly timeoutMs: number;
  constructor(timeoutMs: number) {
    super(`the model sent nothing for ${timeoutMs} ms`);
    this.timeoutMs = timeoutMs;
  }
}

/** The provider could not be reached: the request failed before any answer came (refused, reset, no route, bad address). */
export class ModelUnreachableError extends Error {
  override readonly name = "ModelUnreachableError";
  constructor(cause: unknown) {
    super("the model provider could not be reached", { cause });
  }
}

/** Longest Retry-After the agent waits out itself; a longer one ends the turn, saying when to retry. */
export const MAX_RETRY_AFTER_MS = 10_000;
const RETRIES = 2;
const BACKOFF_MS = 500;

/** Retry-After as milliseconds: seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

const sleep = (ms: number, signal?: AbortSignal | null) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason);
    }, { once: true });
  });

/**
 * Calls `onIdle` when `idleMs` pass between `arm()` and the next `disarm()` (a read that got
 * nothing). One timer per idle window, not one per read: a streamed answer reads many small chunks,
 * and each timer costs more than the read it watches.
 */
function idleWatch(idleMs: number, onIdle: () => void): { arm(): void; disarm(): void; stop(): void } {
  let armedAt: number | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const check = () => {
    timer = undefined;
    if (armedAt === undefined) return;
    const left = armedAt + idleMs - Date.now();
    if (left <= 0) onIdle();
    else timer = setTimeout(check, left);
  };
  return {
    arm() {
      armedAt = Date.now();
      timer ??= setTimeout(check, idleMs);
    },
    disarm() {
      armedAt = undefined;
    },
    /** Nothing more to watch: the timer goes now, not an idle window later. */
    stop() {
      armedAt = undefined;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}

/** A body whose reads are watched by `arm`/`disarm`; a read cut by the idle timer fails with its error. Cancelling it cancels the connection. */
function watched(body: ReadableStream<Uint8Array>, watch: ReturnType<typeof idleWatch>, timedOut: () => ModelTimeoutError | undefined): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      watch.arm();
      try {
        const { value, done } = await reader.read();
        watch.disarm();
        if (done) {
          watch.stop();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        watch.stop();
        throw timedOut() ?? error;
      }
    },
    cancel: (reason) => {
      watch.stop();
      return reader.cancel(reason);
    },
  });
}

/**
 * The fetch the model providers use: through `egress` (straight out, or the sidecar's relay), with retries of 429 and 5xx answers
 * (twice, honouring Retry-After up to 10 s, else a short backoff; a longer Retry-After is answered at
 * once) and an idle timeout — the whole call fails with ModelTimeoutError when the provider sends
 * nothing for `idleMs`, before or while it streams. The caller's abort closes the connection.
 */
export function modelFetch(idleMs: number, egress: typeof globalThis.fetch): typeof globalThis.fetch {
  return async (input, init) => {
    for (let attempt = 0; ; attempt++) {
      const controller = new AbortController();
      const outer = init?.signal;
      const forward = () => controller.abort(outer?.reason);
      if (outer?.aborted) forward();
      else outer?.addEventListener("abort", forward, { once: true });
      const watch = idleWatch(idleMs, () => controller.abort(new ModelTimeoutError(idleMs)));
      watch.arm();
      let response: Response;
      try {
        response = await egress(input, { ...init, signal: controller.signal });
      } catch (error) {
        watch.stop();
        if (controller.signal.reason instanceof ModelTimeoutError) throw controller.signal.reason;
        if (error instanceof EgressRefusedError) throw error;
        // The caller's abort stays an abort; anything else before an answer is the network's (the runtimes word it differently).
        throw outer?.aborted ? error : new ModelUnreachableError(error);
      } finally {
        watch.disarm();
      }
      const retryable = response.status === 429 || response.status >= 500;
      if (retryable && attempt < RETRIES) {
        const wait = retryAfterMs(response.headers.get("retry-after")) ?? BACKOFF_MS * 2 ** attempt;
        if (wait <= MAX_RETRY_AFTER_MS) {
          watch.stop();
          await response.body?.cancel();
          outer?.removeEventListener("abort", forward);
          await sleep(wait, outer);
          continue;
        }
      }
      if (!response.body) {
        watch.stop();
        return response;
      }
      const reason = () => (controller.signal.reason instanceof ModelTimeoutError ? controller.signal.reason : undefined);
      const body = watched(response.body, watch, reason);
      return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
    }
  };
}
