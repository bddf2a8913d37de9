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

/** A body whose reads are watched by `arm`/`disarm`; a read cut by the idle timer fails with its error. Cancelling it cancels the connection. */
function watched(body: ReadableStream<Uint8Array>, arm: () => void, disarm: () => void, timedOut: () => ModelTimeoutError | undefined): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      arm();
      try {
        const { value, done } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        throw timedOut() ?? error;
      } finally {
        disarm();
      }
    },
    cancel: (reason) => reader.cancel(reason),
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
      let timer: ReturnType<typeof setTimeout> | null = null;
      const arm = () => {
        clearTimeout(timer);
        timer = setTimeout(() => controller.abort(new ModelTimeoutError(idleMs)), idleMs);
      };
      const disarm = () => clearTimeout(timer);
      arm();
      let response: Response;
      try {
        response = await egress(input, { ...init, signal: controller.signal });
      } catch (error) {
        if (controller.signal.reason instanceof ModelTimeoutError) throw controller.signal.reason;
        if (error instanceof EgressRefusedError) throw error;
        // The caller's abort stays an abort; anything else before an answer is the network's (the runtimes word it differently).
        throw outer?.aborted ? error : new ModelUnreachableError(error);
      } finally {
        disarm();
      }
      const retryable = response.status === 429 || response.status >= 500;
      if (retryable && attempt < RETRIES) {
        const wait = retryAfterMs(response.headers.get("retry-after")) ?? BACKOFF_MS * 2 ** attempt;
        if (wait <= MAX_RETRY_AFTER_MS) {
          await response.body?.cancel();
          outer?.removeEventListener("abort", forward);
          await sleep(wait, outer);
          continue;
        }
      }
      if (!response.body) return response;
      const reason = () => (controller.signal.reason instanceof ModelTimeoutError ? controller.signal.reason : undefined);
      const body = watched(response.body, arm, disarm, reason);
      return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
    }
  };
}
