import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart, LanguageModelV4StreamResult } from "@ai-sdk/provider";
import { AnthropicMessagesLanguageModel } from "@ai-sdk/anthropic/internal";
import { generateId, isProviderStreamError } from "@ai-sdk/provider-utils";
import { APICallError } from "ai";
import { withoutTrailing } from "@edge-web/shared";
import { anthropicDecoder } from "./anthropic-decoder.ts";
import { definedHeaders } from "./defined-headers.ts";
import { eventStreamParts } from "./event-stream-parts.ts";
import { postForEvents } from "./post-for-events.ts";

/** Where a model's Messages API requests go. */
export interface MessagesEndpoint {
  baseURL: string;
  apiKey?: string;
  fetch: typeof globalThis.fetch;
}

/** Anthropic's own API: a base URL without a version means its first. */
const ANTHROPIC_API = "https://api.anthropic.com";

/** Pictures and PDFs by URL go to Anthropic as URLs (its servers fetch them), as the AI SDK sends them. */
const SUPPORTED_URLS = { "image/*": [/^https?:\/\/.*$/], "application/pdf": [/^https?:\/\/.*$/] };

/** The betas a call's headers ask for. */
const betasOf = (headers: Record<string, string>) =>
  new Set((headers["anthropic-beta"] ?? "").toLowerCase().split(",").map((beta) => beta.trim()).filter((beta) => beta !== ""));

/**
 * An Anthropic Messages model whose streamed answers are read in one pass (event-stream-parts.ts,
 * anthropic-decoder.ts); the AI SDK's provider reads them through six streams (its parser's four,
 * a transform and a copy of it), a third of a turn's CPU. The request is the SDK provider's own
 * (`prepareRequest`: the prompt, tools, thinking and cache options as it sends them). Requests
 * whose answers carry blocks the decoder does not read (a JSON response tool, Anthropic's own
 * tools, pings, raw chunks) and answers without a stream (`doGenerate`) are the SDK provider's.
 */
export class AnthropicModel extends AnthropicMessagesLanguageModel {
  readonly #url: string;
  readonly #fetch: typeof globalThis.fetch;
  readonly #headers: Record<string, string>;

  constructor(modelId: string, endpoint: MessagesEndpoint) {
    const trimmed = withoutTrailing(endpoint.baseURL, "/");
    const baseURL = trimmed === ANTHROPIC_API ? `${ANTHROPIC_API}/v1` : trimmed;
    const headers = { "anthropic-version": "2023-06-01", ...(endpoint.apiKey && { "x-api-key": endpoint.apiKey }) };
    super(modelId, {
      provider: "anthropic.messages",
      supportsMessageThreads: true,
      baseURL,
      headers: () => headers,
      fetch: endpoint.fetch,
      generateId,
      supportedUrls: () => SUPPORTED_URLS,
    });
    this.#url = `${baseURL}/messages`;
    this.#fetch = endpoint.fetch;
    this.#headers = headers;
  }

  override async doStream(options: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> {
    const callHeaders = definedHeaders(options.headers);
    const prepared = await AnthropicMessagesLanguageModel.prepareRequest({
      modelId: this.modelId,
      config: this.config,
      options: { ...options, stream: true, userSuppliedBetas: betasOf(callHeaders) },
    });
    const { args: body, warnings, betas } = prepared;
    const special = prepared.usesJsonResponseTool || prepared.includePings || prepared.markCodeExecutionDynamic || options.includeRawChunks;
    if (special || prepared.preparedTools?.some((tool) => "type" in tool)) return super.doStream(options);
    const answer = await postForEvents(this.#fetch, this.#url, {
      headers: {
        ...this.#headers,
        ...callHeaders,
        ...(betas.size > 0 && { "anthropic-beta": [...betas].join(",") }),
        "content-type": "application/json",
      },
      body,
      ...(options.abortSignal && { signal: options.abortSignal }),
    });
    const { responseHeaders } = answer.source;
    // An answer that starts with a streamed error fails the call as an HTTP refusal would (so it is retried, and described, by its status).
    const refuseFirst = (part: LanguageModelV4StreamPart) => {
      if (part.type !== "error") return undefined;
      if (!isProviderStreamError(part.error)) return new Error("Expected a normalized Anthropic stream error");
      const error = part.error;
      return new APICallError({
        message: error.message,
        url: this.#url,
        requestBodyValues: body,
        statusCode: error.statusCode ?? 500,
        responseHeaders,
        responseBody: JSON.stringify(error.data),
        isRetryable: error.isRetryable ?? false,
      });
    };
    return {
      stream: await eventStreamParts(answer.body, (enqueue) => anthropicDecoder(warnings, enqueue), answer.source, refuseFirst),
      request: { body },
      response: { headers: responseHeaders },
    };
  }
}
