import { wrapLanguageModel, type LanguageModel } from "ai";
import { ModelTimeoutError } from "./model-fetch.ts";

/**
 * Fails a model's streamed answer with ModelTimeoutError when `idleMs` pass between two of its
 * parts (the wait for the answer to start is the model fetch's). The parts are watched where they
 * are already JavaScript objects: a watch on the response bytes would put a JavaScript stream
 * between the connection and the runtime's own decoder, which costs more than the whole turn's
 * parsing. One timer per idle window, not one per part.
 */
export function withStreamIdleTimeout(model: LanguageModel, idleMs: number): LanguageModel {
  if (typeof model === "string") return model;
  return wrapLanguageModel({
    model,
    middleware: {
      wrapStream: async ({ doStream, params }) => {
        const result = await doStream();
        let last = Date.now();
        let timer: ReturnType<typeof setTimeout> | null = null;
        const stop = () => clearTimeout(timer);
        // An aborted call's stream is cancelled, not flushed: its timer goes with the abort.
        params.abortSignal?.addEventListener("abort", stop, { once: true });
        const watch = new TransformStream<unknown, unknown>({
          start(controller) {
            const check = () => {
              const left = last + idleMs - Date.now();
              if (left > 0) timer = setTimeout(check, left);
              // Erroring the parts cancels what feeds them, down to the provider's connection.
              else controller.error(new ModelTimeoutError(idleMs));
            };
            timer = setTimeout(check, idleMs);
          },
          transform(part, controller) {
            last = Date.now();
            controller.enqueue(part);
          },
          flush: () => {
            stop();
            params.abortSignal?.removeEventListener("abort", stop);
          },
        });
        return { ...result, stream: result.stream.pipeThrough(watch) as typeof result.stream };
      },
    },
  });
}
