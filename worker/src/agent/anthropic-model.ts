import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4StreamPart, LanguageModelV4StreamResult } from "@ai-sdk/provider";
import { AnthropicMessagesLanguageModel } from "@ai-sdk/anthropic/internal";
import { generateId, isProviderStreamError } from "@ai-sdk/provider-utils";
import { APICallError, EmptyResponseBodyError } from "ai";
import { anthropicDecoder } from "./anthropic-decoder.ts";
import { eventStreamParts } from "./event-stream-parts.ts";
import { providerCallError } from "./provider-call-error.ts";

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

/** The call's own headers that have a value. */
function definedHeaders(headers: Record<string, string | undefined> | undefined): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) if (value !== undefined) kept[name] = value;
  return kept;
}

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
export class AnthropicModel implements LanguageModelV4 {
  readonly specificationVersion = "v4";
  readonly #sdk: AnthropicMessagesLanguageModel;
  readonly #config: ConstructorParameters<typeof AnthropicMessagesLanguageModel>[1];
  readonly #url: string;

  constructor(modelId: string, endpoint: MessagesEndpoint) {
    const trimmed = endpoint.baseURL.replace(/\/+$/, "");
    const baseURL = trimmed === ANTHROPIC_API ? `${ANTHROPIC_API}/v1` : trimmed;
    const auth = endpoint.apiKey ? { "x-api-key": endpoint.apiKey } : undefined;
    this.#config = {
      provider: "anthropic.messages",
      supportsMessageThreads: true,
      baseURL,
      headers: () => ({ "anthropic-version": "2023-06-01", ...auth }),
      fetch: endpoint.fetch,
      generateId,
      supportedUrls: () => SUPPORTED_URLS,
    };
    this.#sdk = new AnthropicMessagesLanguageModel(modelId, this.#config);
    this.#url = `${baseURL}/messages`;
  }

  get provider() {
    return this.#sdk.provider;
  }
  get modelId() {
    return this.#sdk.modelId;
  }
  get supportedUrls() {
    return this.#sdk.supportedUrls;
  }

  doGenerate(options: LanguageModelV4CallOptions) {
    return this.#sdk.doGenerate(options);
  }

  async doStream(options: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> {
    const callHeaders = definedHeaders(options.headers);
    const prepared = await AnthropicMessagesLanguageModel.prepareRequest({
      modelId: this.modelId,
      config: this.#config,
      options: { ...options, stream: true, userSuppliedBetas: betasOf(callHeaders) },
    });
    const { args: body, warnings, betas } = prepared;
    const special = prepared.usesJsonResponseTool || prepared.includePings || prepared.markCodeExecutionDynamic || options.includeRawChunks;
    if (special || prepared.preparedTools?.some((tool) => "type" in tool)) return this.#sdk.doStream(options);
    const response = await this.#config.fetch!(this.#url, {
      method: "POST",
      headers: {
        ...(this.#config.headers as () => Record<string, string>)(),
        ...callHeaders,
        ...(betas.size > 0 && { "anthropic-beta": [...betas].join(",") }),
        "content-type": "application/json",
      },
      body: JSON.stringify(body),
      ...(options.abortSignal && { signal: options.abortSignal }),
    });
    if (!response.ok) throw await providerCallError(response, this.#url, body);
    if (!response.body) throw new EmptyResponseBodyError({});
    const responseHeaders = Object.fromEntries(response.headers);
    const source = { url: this.#url, requestBodyValues: body, statusCode: response.status, responseHeaders };
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
      stream: await eventStreamParts(response.body, anthropicDecoder(warnings), source, refuseFirst),
      request: { body },
      response: { headers: responseHeaders },
    };
  }
}
