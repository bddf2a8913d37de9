import { wrapLanguageModel, type LanguageModel } from "ai";
import { idleTimer } from "./idle-timer.ts";
import { ModelTimeoutError } from "./model-fetch.ts";

/**
 * Fails a model's streamed answer with ModelTimeoutError when `idleMs` pass between two of its
 * parts (the wait for the answer to start is the model fetch's), for calls made through the SDK's
 * own loops (a compaction's summary). A turn's loop watches its parts itself: this wrapper adds a
 * stream every part passes, about 1 ms of CPU per model call.
 */
export function withStreamIdleTimeout(model: LanguageModel, idleMs: number): LanguageModel {
  if (typeof model === "string") return model;
  return wrapLanguageModel({
    model,
    middleware: {
      wrapStream: async ({ doStream, params }) => {
        const result = await doStream();
        let watch: ReturnType<typeof idleTimer> | undefined;
        const stop = () => watch?.stop();
        // An aborted call's stream is cancelled, not flushed: its timer goes with the abort.
        params.abortSignal?.addEventListener("abort", stop, { once: true });
        const parts = new TransformStream<unknown, unknown>({
          start(controller) {
            // Erroring the parts cancels what feeds them, down to the provider's connection.
            watch = idleTimer(idleMs, () => controller.error(new ModelTimeoutError(idleMs)));
          },
          transform(part, controller) {
            watch?.touch();
            controller.enqueue(part);
          },
          flush: () => {
            stop();
            params.abortSignal?.removeEventListener("abort", stop);
          },
        });
        return { ...result, stream: result.stream.pipeThrough(parts) as typeof result.stream };
      },
    },
  });
}
