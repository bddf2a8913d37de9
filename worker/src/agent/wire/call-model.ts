/*
 * agent/wire/: the AI SDK bypass — everything that speaks the providers' wire formats. A turn's
 * model calls (and a compaction's summary) are made here with the SDK's own parts but read without
 * its streams, which cost more CPU than the rest of a turn (docs/agent.md). This file is its entry:
 * callModel makes one call; openai-compatible-model.ts and anthropic-model.ts post the SDK
 * providers' own requests and read the answers in one pass (event-stream-parts.ts with
 * chat-completion-decoder.ts or anthropic-decoder.ts); message-assembly.ts rebuilds the assistant
 * message as the SDK's client does; model-fetch.ts and model-egress.ts carry the requests.
 *
 * Imports from the SDK's `internal` entry points, which carry no semver promise:
 * - `ai/internal` (here): standardizePrompt and convertToLanguageModelPrompt (the prompt as the
 *   SDK's streamText builds it), prepareTools and prepareToolChoice (tool definitions), parseToolCall
 *   (a call's input parsed and checked against its tool, invalid calls marked), asLanguageModelUsage
 *   (a provider's usage as the SDK reports it), resolveLanguageModel (a model as the SDK calls it).
 * - `@ai-sdk/anthropic/internal` (anthropic-model.ts): AnthropicMessagesLanguageModel, subclassed
 *   for its static prepareRequest (the request body, betas, warnings, which answers need its reader)
 *   and its doStream for the answers the decoder leaves to it.
 * - `@ai-sdk/openai-compatible/internal` (chat-completion-decoder.ts): convertOpenAICompatibleChatUsage,
 *   getResponseMetadata and mapOpenAICompatibleFinishReason, so a chunk's usage, metadata and finish
 *   reason are the provider's own.
 *
 * The gate for upgrading `ai` or `@ai-sdk/*` (pinned exactly) is the differential tests, which
 * replay the same answers through the SDK and through these readers and compare every part, the
 * requests sent and the errors thrown: worker/test/call-model.test.ts (callModel against the SDK's
 * single call), worker/test/chat-completion-stream.test.ts and worker/test/anthropic-stream.test.ts
 * (each model class against the SDK provider's), worker/test/message-assembly.test.ts (against
 * readUIMessageStream). An upgrade that changes what any of them compares changes this folder first.
 */
import type { LanguageModelV4StreamPart, SharedV4ProviderMetadata } from "@ai-sdk/provider";
import { getErrorMessage } from "@ai-sdk/provider-utils";
import { StreamProviderError, type ContentPart, type FinishReason, type LanguageModel, type LanguageModelUsage, type ModelMessage, type TextStreamPart, type ToolSet } from "ai";
import { asLanguageModelUsage, convertToLanguageModelPrompt, parseToolCall, prepareToolChoice, prepareTools, resolveLanguageModel, standardizePrompt } from "ai/internal";
import type { ProviderOptions } from "./model-provider.ts";

/** How a model call ended: why the model stopped, and what the call used. */
export interface ModelCallEnd {
  type: "model-call-end";
  finishReason: FinishReason;
  usage: LanguageModelUsage;
}

export type ModelCallPart = TextStreamPart<ToolSet> | ModelCallEnd;

export interface ModelCallRequest {
  model: LanguageModel;
  system: string;
  messages: ModelMessage[];
  tools: ToolSet;
  providerOptions?: ProviderOptions;
  /** The most the answer may take (a compaction's summary); none for a turn's calls. */
  maxOutputTokens?: number;
  abortSignal: AbortSignal;
}

export interface ModelCallStream {
  /** The call's parts as the turn shows them, read from the provider as they come. */
  parts: AsyncGenerator<ModelCallPart, void, undefined>;
  /** What the model said, filled in as `parts` is read: the call's part of the conversation. */
  content: ContentPart<ToolSet>[];
}

/** A provider's error part as an error: an object with a message becomes the SDK's StreamProviderError. */
function streamError(error: unknown): unknown {
  if (error instanceof Error || typeof error !== "object" || error === null) return error;
  const details = error as { message?: unknown; type?: unknown; code?: unknown; status?: unknown; statusCode?: unknown };
  if (typeof details.message !== "string") return error;
  const status = [details.statusCode, details.status, details.code].find((value): value is number => typeof value === "number" && value >= 100 && value < 600);
  return new StreamProviderError({
    message: details.message,
    ...(typeof details.type === "string" && { type: details.type }),
    ...((typeof details.code === "string" || typeof details.code === "number") && { code: details.code }),
    ...(status !== undefined && { statusCode: status }),
    data: error,
  });
}

/**
 * One model call, made as the AI SDK makes one (its prompt conversion, tool preparation and
 * tool-call parsing, all from `ai/internal`), with the provider's parts read straight off the
 * provider's stream: the SDK's own call pipes them through two more streams (a transform and an
 * async-iterable copy), a round of promises per part in each, which cost a turn more CPU than the
 * loop that reads them. Each part becomes the one the SDK would stream, and the call's content
 * (text and reasoning with their provider metadata, tool calls as parsed, sources) is collected as
 * the SDK collects it, for the messages the next call sends.
 */
export async function callModel(request: ModelCallRequest): Promise<ModelCallStream> {
  const model = resolveLanguageModel(request.model);
  const standardized = await standardizePrompt({ system: request.system, messages: request.messages });
  const prompt = await convertToLanguageModelPrompt({
    prompt: { instructions: standardized.instructions, messages: standardized.messages },
    supportedUrls: await model.supportedUrls,
    download: undefined,
    abortSignal: request.abortSignal,
    provider: model.provider.split(".")[0],
  });
  const { stream } = await model.doStream({
    tools: await prepareTools({ tools: request.tools }),
    toolChoice: prepareToolChoice({ toolChoice: undefined }),
    prompt,
    ...(request.providerOptions && { providerOptions: request.providerOptions }),
    ...(request.maxOutputTokens !== undefined && { maxOutputTokens: request.maxOutputTokens }),
    abortSignal: request.abortSignal,
  });
  const content: ContentPart<ToolSet>[] = [];
  return { content, parts: readParts(stream, content, request, standardized) };
}

type Collected = Extract<ContentPart<ToolSet>, { type: "text" | "reasoning" }>;

async function* readParts(
  stream: ReadableStream<LanguageModelV4StreamPart>,
  content: ContentPart<ToolSet>[],
  request: ModelCallRequest,
  standardized: Awaited<ReturnType<typeof standardizePrompt>>,
): AsyncGenerator<ModelCallPart, void, undefined> {
  const { tools, abortSignal } = request;
  const reader = stream.getReader();
  // Text and reasoning blocks being streamed, by kind and id: their text grows, their metadata is the latest given.
  const blocks = new Map<string, Collected>();
  const block = (type: "text" | "reasoning", id: string, delta?: string, metadata?: SharedV4ProviderMetadata) => {
    const key = `${type}\u0000${id}`;
    let part = blocks.get(key);
    if (!part) {
      part = { type, text: "", ...(metadata && { providerMetadata: metadata }) } as Collected;
      blocks.set(key, part);
      content.push(part);
    }
    if (delta) part.text += delta;
    if (metadata) part.providerMetadata = metadata;
    return key;
  };
  const toolCalls = new Map<string, { input: unknown }>();
  let done = false;
  try {
    for (;;) {
      const read = await reader.read();
      if (read.done) {
        done = true;
        return;
      }
      const part = read.value;
      switch (part.type) {
        case "text-start":
        case "reasoning-start":
          block(part.type === "text-start" ? "text" : "reasoning", part.id, undefined, part.providerMetadata);
          yield part;
          break;
        case "text-delta":
        case "reasoning-delta": {
          const type = part.type === "text-delta" ? "text" : "reasoning";
          block(type, part.id, part.delta, part.providerMetadata);
          yield { type: part.type, id: part.id, text: part.delta, ...(part.providerMetadata && { providerMetadata: part.providerMetadata }) };
          break;
        }
        case "text-end":
        case "reasoning-end":
          blocks.delete(block(part.type === "text-end" ? "text" : "reasoning", part.id, undefined, part.providerMetadata));
          yield part;
          break;
        case "tool-input-start": {
          const tool = Object.hasOwn(tools, part.toolName) ? tools[part.toolName] : undefined;
          yield { ...part, dynamic: part.dynamic ?? tool?.type === "dynamic", ...(tool?.title !== undefined && { title: tool.title }) } as ModelCallPart;
          break;
        }
        case "tool-input-delta":
        case "tool-input-end":
          yield part;
          break;
        case "tool-call": {
          const call = await parseToolCall({ toolCall: part, tools, repairToolCall: undefined, instructions: standardized.instructions, messages: standardized.messages, abortSignal });
          toolCalls.set(call.toolCallId, call);
          content.push(call);
          yield call;
          if (call.invalid && !call.providerExecuted) {
            yield { type: "tool-error", toolCallId: call.toolCallId, toolName: call.toolName, input: call.input, error: getErrorMessage(call.error), dynamic: true, ...(call.title !== undefined && { title: call.title }) } as ModelCallPart;
          }
          break;
        }
        case "tool-result": {
          // A tool the provider ran itself (a server tool): its outcome, shown and kept.
          const input = toolCalls.get(part.toolCallId)?.input;
          const common = { toolCallId: part.toolCallId, toolName: part.toolName, input, providerExecuted: true, ...(part.dynamic !== undefined && { dynamic: part.dynamic }), ...(part.providerMetadata && { providerMetadata: part.providerMetadata }) };
          const outcome = (part.isError ? { type: "tool-error", ...common, error: part.result } : { type: "tool-result", ...common, output: part.result }) as ModelCallPart & ContentPart<ToolSet>;
          content.push(outcome);
          yield outcome;
          break;
        }
        case "source":
        case "custom":
          content.push(part as ContentPart<ToolSet>);
          yield part as ModelCallPart;
          break;
        case "finish":
          yield { type: "model-call-end", finishReason: part.finishReason.unified, usage: asLanguageModelUsage(part.usage) };
          break;
        case "error":
          yield { type: "error", error: streamError(part.error) };
          break;
        default:
          // stream-start, response-metadata, raw; generated files and approval requests of provider tools, which
          // neither provider's streamed answers carry (and a file given by URL would be a request no policy passed).
          break;
      }
    }
  } finally {
    // Left before the end (the turn stopped reading): the provider's stream, and its connection, are closed.
    if (!done) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
