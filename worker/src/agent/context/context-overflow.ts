import { APICallError, wrapLanguageModel, type LanguageModel, type LanguageModelMiddleware } from "ai";

/** The providers' ways of saying a request is larger than the model's window (OpenAI and compatible servers, Anthropic). */
const TOO_LONG = /context_length_exceeded|maximum context length|context length|prompt is too long|too many tokens|exceeds the context window/i;

/** Whether a failed call was refused for its size: HTTP 400 (or 413) with one of the known messages. */
export function isContextOverflow(error: unknown): boolean {
  if (!APICallError.isInstance(error)) return false;
  if (error.statusCode !== 400 && error.statusCode !== 413) return false;
  return TOO_LONG.test(error.responseBody ?? "") || TOO_LONG.test(error.message);
}

type Rewrite = (prompt: Array<{ role: string; content: unknown }>) => Array<{ role: string; content: unknown }>;

/**
 * The model with one retry for a request refused as too long: `overflow` compacts and answers how
 * the refused prompt is rewritten (undefined: nothing to cut, the refusal stands). A second refusal
 * fails the call.
 */
export function withOverflowRetry(model: LanguageModel, overflow: (signal: AbortSignal | undefined) => Promise<Rewrite | undefined>): LanguageModel {
  if (typeof model === "string") return model;
  const middleware: LanguageModelMiddleware = {
    wrapStream: async ({ doStream, params, model: inner }) => {
      try {
        return await doStream();
      } catch (error) {
        if (!isContextOverflow(error)) throw error;
        const rewrite = await overflow(params.abortSignal);
        if (!rewrite) throw error;
        return inner.doStream({ ...params, prompt: rewrite(params.prompt) as typeof params.prompt });
      }
    },
  };
  return wrapLanguageModel({ model, middleware });
}
