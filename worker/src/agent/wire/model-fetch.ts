import { EgressRefusedError } from "../../egress-refused-error.ts";
import { RelayUnavailableError } from "../../relay-unavailable-error.ts";

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
 * The fetch the model providers use: through `egress` (the sidecar's relay), with retries of 429 and 5xx answers
 * (twice, honouring Retry-After up to 10 s, else a short backoff; a longer Retry-After is answered at
 * once) and an idle timeout — the call fails with ModelTimeoutError when the provider's answer does
 * not start within `idleMs` (silence while it streams is the caller's to watch, with idle-timer.ts). The caller's
 * abort closes the connection; the body is the connection's own stream, untouched.
 */
export function modelFetch(idleMs: number, egress: typeof globalThis.fetch): typeof globalThis.fetch {
  return async (input, init) => {
    for (let attempt = 0; ; attempt++) {
      const controller = new AbortController();
      const outer = init?.signal;
      const forward = () => controller.abort(outer?.reason);
      if (outer?.aborted) forward();
      else outer?.addEventListener("abort", forward, { once: true });
      const silent = setTimeout(() => controller.abort(new ModelTimeoutError(idleMs)), idleMs);
      let response: Response;
      try {
        response = await egress(input, { ...init, signal: controller.signal });
      } catch (error) {
        if (controller.signal.reason instanceof ModelTimeoutError) throw controller.signal.reason;
        if (error instanceof EgressRefusedError || error instanceof RelayUnavailableError) throw error;
        // The caller's abort stays an abort; anything else before an answer is the network's (the runtimes word it differently).
        throw outer?.aborted ? error : new ModelUnreachableError(error);
      } finally {
        clearTimeout(silent);
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
      return response;
    }
  };
}
