import type { LanguageModelV4CallOptions, LanguageModelV4StreamResult } from "@ai-sdk/provider";
import { OpenAICompatibleChatLanguageModel } from "@ai-sdk/openai-compatible";
import { withoutTrailing } from "@edge-web/shared";
import { chatCompletionDecoder } from "./chat-completion-decoder.ts";
import { definedHeaders } from "./defined-headers.ts";
import { eventStreamParts, type EnqueuePart } from "./event-stream-parts.ts";
import { postForEvents } from "./post-for-events.ts";

/** Where a model's Chat Completions requests go. */
export interface ChatEndpoint {
  /** The provider's name: its key in provider options (the turn's are keyed by it) and metadata. */
  name: string;
  baseURL: string;
  apiKey?: string;
  fetch: typeof globalThis.fetch;
}

/**
 * A Chat Completions model whose streamed answers are read in one pass (event-stream-parts.ts,
 * chat-completion-decoder.ts). The request is the AI SDK's provider's own (`prepareRequest`: the
 * prompt, tools, options and thinking level as it sends them), so servers see what they saw before;
 * answers without a stream (`doGenerate`), and streams with raw chunks, are the SDK provider's.
 */
export class OpenAICompatibleModel extends OpenAICompatibleChatLanguageModel {
  readonly #endpoint: ChatEndpoint;
  readonly #url: string;
  readonly #headers: Record<string, string>;

  constructor(modelId: string, endpoint: ChatEndpoint) {
    const base = withoutTrailing(endpoint.baseURL, "/");
    const headers: Record<string, string> = endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {};
    super(modelId, { provider: `${endpoint.name}.chat`, url: ({ path }) => `${base}${path}`, headers: () => headers, fetch: endpoint.fetch, includeUsage: true });
    this.#endpoint = endpoint;
    this.#url = `${base}/chat/completions`;
    this.#headers = headers;
  }

  override async doStream(options: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> {
    // Raw chunks (the turn never asks for them) are the SDK provider's to give.
    if (options.includeRawChunks) return super.doStream(options);
    const { body: prepared, warnings } = await this.prepareRequest(options);
    const body = { ...prepared, stream: true, stream_options: { include_usage: true } };
    const answer = await postForEvents(this.#endpoint.fetch, this.#url, {
      headers: { "content-type": "application/json", ...this.#headers, ...definedHeaders(options.headers) },
      body,
      ...(options.abortSignal && { signal: options.abortSignal }),
    });
    const decoder = (enqueue: EnqueuePart) => chatCompletionDecoder({ warnings, metadataKey: this.#endpoint.name }, enqueue);
    return {
      stream: await eventStreamParts(answer.body, decoder, answer.source),
      request: { body: answer.requestBody },
      response: { headers: answer.source.responseHeaders },
    };
  }
}
