import type { JSONObject, JSONValue, LanguageModelV4FinishReason, LanguageModelV4StreamPart, LanguageModelV4Usage, SharedV4Warning } from "@ai-sdk/provider";
import { createProviderStreamError } from "@ai-sdk/provider-utils";
import { InvalidResponseDataError, JSONParseError, TypeValidationError } from "ai";
import type { EnqueuePart, EventDecoder } from "./event-stream-parts.ts";

/** Token counts as the Messages API streams them. */
interface WireUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  output_tokens_details?: { thinking_tokens?: number | null } | null;
  iterations?: Array<{ type: string; model?: string | null; input_tokens: number; output_tokens: number; cache_creation_input_tokens?: number | null; cache_read_input_tokens?: number | null }> | null;
  service_tier?: string | null;
}

/** A content block being streamed, by its index. */
type Block = { type: "text" } | { type: "reasoning" } | { type: "tool-call"; toolCallId: string; toolName: string; input: string; caller?: Caller };

interface Caller {
  type: unknown;
  toolId: unknown;
}

/** How a streamed error's type reads as an HTTP status, and whether it is worth a retry. */
const ERROR_TYPES: Record<string, { statusCode: number; isRetryable: boolean }> = {
  api_error: { statusCode: 500, isRetryable: true },
  overloaded_error: { statusCode: 529, isRetryable: true },
  rate_limit_error: { statusCode: 429, isRetryable: true },
  request_too_large: { statusCode: 413, isRetryable: false },
  authentication_error: { statusCode: 401, isRetryable: false },
  permission_error: { statusCode: 403, isRetryable: false },
  not_found_error: { statusCode: 404, isRetryable: false },
  billing_error: { statusCode: 400, isRetryable: false },
  invalid_request_error: { statusCode: 400, isRetryable: false },
};

/** A stop reason as a finish reason. */
function finishOf(reason: string | null | undefined): LanguageModelV4FinishReason["unified"] {
  switch (reason) {
    case "pause_turn":
    case "end_turn":
    case "stop_sequence":
      return "stop";
    case "refusal":
      return "content-filter";
    case "tool_use":
      return "tool-calls";
    case "max_tokens":
    case "model_context_window_exceeded":
      return "length";
    default:
      return "other";
  }
}

/** Token counts as the AI SDK gives them: cache writes and reads within the input, a message's iterations summed. */
function usageOf(usage: Required<Pick<WireUsage, "input_tokens" | "output_tokens">> & WireUsage, raw: unknown): LanguageModelV4Usage {
  const cacheWrite = usage.cache_creation_input_tokens ?? 0;
  const cacheRead = usage.cache_read_input_tokens ?? 0;
  const reasoning = usage.output_tokens_details?.thinking_tokens ?? undefined;
  let input = usage.input_tokens ?? 0;
  let output = usage.output_tokens ?? 0;
  const iterations = usage.iterations ?? [];
  if (iterations.length > 0 && !iterations.some((i) => i.type === "fallback_message")) {
    const counted = iterations.filter((i) => i.type === "compaction" || i.type === "message");
    if (counted.length > 0) {
      input = counted.reduce((n, i) => n + i.input_tokens, 0);
      output = counted.reduce((n, i) => n + i.output_tokens, 0);
    }
  }
  return {
    inputTokens: { total: input + cacheWrite + cacheRead, noCache: input, cacheRead, cacheWrite },
    outputTokens: { total: output, text: reasoning == null ? undefined : output - reasoning, reasoning },
    raw: raw as LanguageModelV4Usage["raw"],
  };
}

const callerOf = (caller: unknown): Caller | undefined => {
  if (caller == null || typeof caller !== "object") return undefined;
  const c = caller as { type?: unknown; tool_id?: unknown };
  return { type: c.type, toolId: "tool_id" in c ? c.tool_id : undefined };
};

/** The content blocks the decoder reads: those the answers to this service's requests carry. */
const READ_BLOCKS = new Set(["text", "thinking", "redacted_thinking", "tool_use"]);


/** The parts an answer with output and no end (the connection closed mid-message) ends with. */
const NO_USAGE: LanguageModelV4Usage = { inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: undefined, text: undefined, reasoning: undefined } };

/**
 * The parts of an Anthropic Messages answer, event by event, as the AI SDK's Anthropic provider
 * makes them of the answers this service asks for: text, thinking (with its signature) and
 * redacted thinking, tool calls with their streamed input, usage with cache reads and writes, the
 * stop reason, streamed errors with the status their type stands for, and an `interrupted` finish
 * when the connection closes mid-message. Blocks and deltas that only answers to other requests
 * carry (server tools, citations, compaction, fallbacks) are error parts, as the SDK's provider makes
 * of a block it does not know; requests that could get them are left to the SDK's provider
 * (anthropic-model.ts).
 */
export function anthropicDecoder(warnings: SharedV4Warning[], given: EnqueuePart): EventDecoder {
  const blocks = new Map<number, Block>();
  const usage: Required<Pick<WireUsage, "input_tokens" | "output_tokens">> & WireUsage = { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, iterations: null };
  // What the wire said, kept as parsed JSON for the finish part's provider metadata.
  let rawUsage: JSONObject | undefined;
  let finishReason: LanguageModelV4FinishReason = { unified: "other", raw: undefined };
  let stopSequence: JSONValue = null;
  let serviceTier: JSONValue | undefined = null;
  let stopDetails: JSONObject | undefined;
  let inputTransformations: JSONValue | undefined;
  let safeguardResults: JSONValue | undefined;
  let container: JSONValue = null;
  let blockType: string | undefined;
  let open = false;
  let messageId: unknown;
  let invalidSequence = false;
  // Whether output came since the last message boundary, and the last finish: an answer cut off mid-message ends `interrupted`.
  let hasOutput = false;
  let failed = false;
  let lastFinish: Extract<LanguageModelV4StreamPart, { type: "finish" }> | undefined;

  // Every part passes here on its way out, so the end knows what the answer gave.
  const enqueue: EnqueuePart = (part) => {
    if (part.type === "response-metadata") hasOutput = false;
    else if (part.type === "finish") {
      hasOutput = false;
      lastFinish = part;
    } else if (part.type === "error") failed = true;
    else if (part.type === "text-delta" || part.type === "reasoning-delta" || part.type === "tool-input-delta") hasOutput ||= part.delta.length > 0;
    else if (part.type === "tool-call") hasOutput = true;
    given(part);
  };
  /** An event the decoder does not read is an error part, and the answer goes on (as the SDK's provider treats an event its schema refuses). */
  const unread = (value: unknown, what: string) => enqueue({ type: "error", error: new TypeValidationError({ value, cause: new Error(`${what} is not read here`) }) });
  const toolCall = (id: string, name: string, input: string, caller: Caller | undefined) =>
    enqueue({ type: "tool-call", toolCallId: id, toolName: name, input, ...(caller && { providerMetadata: { anthropic: { caller } } }) } as LanguageModelV4StreamPart);

  const handle = (value: any) => {
    switch (value.type) {
      case "ping":
        return;
      case "content_block_start": {
        const part = value.content_block;
        if (!READ_BLOCKS.has(part.type) || (part.type === "tool_use" && part.toolset_name != null)) return unread(value, `a content block of type "${part.type}"`);
        blockType = part.type;
        const id = String(value.index);
        if (part.type === "text") {
          blocks.set(value.index, { type: "text" });
          enqueue({ type: "text-start", id });
        } else if (part.type === "thinking") {
          blocks.set(value.index, { type: "reasoning" });
          enqueue({ type: "reasoning-start", id });
        } else if (part.type === "redacted_thinking") {
          blocks.set(value.index, { type: "reasoning" });
          enqueue({ type: "reasoning-start", id, providerMetadata: { anthropic: { redactedData: part.data } } });
        } else {
          const input = part.input && Object.keys(part.input).length > 0 ? JSON.stringify(part.input) : "";
          const caller = callerOf(part.caller);
          blocks.set(value.index, { type: "tool-call", toolCallId: part.id, toolName: part.name, input, ...(caller && { caller }) });
          enqueue({ type: "tool-input-start", id: part.id, toolName: part.name });
        }
        return;
      }
      case "content_block_stop": {
        const block = blocks.get(value.index);
        if (block?.type === "text") enqueue({ type: "text-end", id: String(value.index) });
        else if (block?.type === "reasoning") enqueue({ type: "reasoning-end", id: String(value.index) });
        else if (block?.type === "tool-call") {
          enqueue({ type: "tool-input-end", id: block.toolCallId });
          toolCall(block.toolCallId, block.toolName, block.input === "" ? "{}" : block.input, block.caller);
        }
        blocks.delete(value.index);
        blockType = undefined;
        return;
      }
      case "content_block_delta": {
        const delta = value.delta;
        const id = String(value.index);
        if (delta.type === "text_delta") enqueue({ type: "text-delta", id, delta: delta.text });
        else if (delta.type === "thinking_delta") enqueue({ type: "reasoning-delta", id, delta: delta.thinking });
        else if (delta.type === "signature_delta") {
          if (blockType === "thinking") enqueue({ type: "reasoning-delta", id, delta: "", providerMetadata: { anthropic: { signature: delta.signature } } });
        } else if (delta.type === "input_json_delta") {
          const block = blocks.get(value.index);
          if (delta.partial_json.length === 0 || block?.type !== "tool-call") return;
          enqueue({ type: "tool-input-delta", id: block.toolCallId, delta: delta.partial_json });
          block.input += delta.partial_json;
        } else unread(value, `a delta of type "${delta.type}"`);
        return;
      }
      case "message_start": {
        const message = value.message;
        if (open) {
          if (messageId === message.id) return;
          invalidSequence = true;
          enqueue({ type: "error", error: new InvalidResponseDataError({ data: value, message: `Received message_start for message ${JSON.stringify(message.id)} while message ${JSON.stringify(messageId)} is still open.` }) });
          return;
        }
        serviceTier = message.usage.service_tier ?? message.service_tier ?? null;
        open = true;
        messageId = message.id;
        usage.input_tokens = message.usage.input_tokens;
        usage.cache_read_input_tokens = message.usage.cache_read_input_tokens ?? 0;
        usage.cache_creation_input_tokens = message.usage.cache_creation_input_tokens ?? 0;
        rawUsage = { ...message.usage };
        if (message.input_transformations != null) inputTransformations = message.input_transformations;
        if (message.container != null) container = { expiresAt: message.container.expires_at, id: message.container.id, skills: null };
        if (message.stop_reason != null) finishReason = { unified: finishOf(message.stop_reason), raw: message.stop_reason };
        enqueue({ type: "response-metadata", id: message.id ?? undefined, modelId: message.model ?? undefined });
        enqueue({ type: "custom", kind: "anthropic.message_start", providerMetadata: { anthropic: { id: message.id ?? null, model: message.model ?? null, usage: rawUsage } } } as LanguageModelV4StreamPart);
        for (const part of message.content ?? []) {
          if (part.type !== "tool_use") continue;
          const input = JSON.stringify(part.input ?? {});
          enqueue({ type: "tool-input-start", id: part.id, toolName: part.name });
          enqueue({ type: "tool-input-delta", id: part.id, delta: input });
          enqueue({ type: "tool-input-end", id: part.id });
          toolCall(part.id, part.name, input, callerOf(part.caller));
        }
        return;
      }
      case "message_delta": {
        const wire = value.usage as WireUsage;
        if (wire.input_tokens != null && usage.input_tokens !== wire.input_tokens) usage.input_tokens = wire.input_tokens;
        usage.output_tokens = wire.output_tokens!;
        if (wire.output_tokens_details != null) usage.output_tokens_details = wire.output_tokens_details;
        if (wire.cache_read_input_tokens != null) usage.cache_read_input_tokens = wire.cache_read_input_tokens;
        if (wire.cache_creation_input_tokens != null) usage.cache_creation_input_tokens = wire.cache_creation_input_tokens;
        if (wire.iterations != null) usage.iterations = wire.iterations;
        finishReason = { unified: finishOf(value.delta.stop_reason), raw: value.delta.stop_reason ?? undefined };
        stopSequence = value.delta.stop_sequence ?? null;
        const details = value.delta.stop_details;
        stopDetails =
          details == null
            ? undefined
            : { type: details.type, ...(details.category != null && { category: details.category }), ...(details.explanation != null && { explanation: details.explanation }), ...(details.recommended_model != null && { recommendedModel: details.recommended_model }) };
        const c = value.delta.container;
        container = c != null ? { expiresAt: c.expires_at, id: c.id, skills: c.skills?.map((s: any) => ({ type: s.type, skillId: s.skill_id, version: s.version })) ?? null } : null;
        if (value.input_transformations != null) inputTransformations = value.input_transformations;
        if (value.delta.safeguard_results != null) safeguardResults = value.delta.safeguard_results;
        serviceTier = wire.service_tier ?? serviceTier;
        rawUsage = { ...rawUsage, ...value.usage };
        return;
      }
      case "message_stop": {
        open = false;
        messageId = undefined;
        const anthropic = {
          usage: rawUsage ?? null,
          stopSequence,
          ...(serviceTier != null && { serviceTier }),
          ...(stopDetails != null && { stopDetails }),
          ...(inputTransformations != null && { inputTransformations }),
          ...(safeguardResults != null && { safeguardResults }),
          iterations: usage.iterations
            ? usage.iterations.map((i) => ({
                type: i.type,
                ...(i.model != null && { model: i.model }),
                inputTokens: i.input_tokens,
                outputTokens: i.output_tokens,
                ...(i.cache_creation_input_tokens ? { cacheCreationInputTokens: i.cache_creation_input_tokens } : {}),
                ...(i.cache_read_input_tokens ? { cacheReadInputTokens: i.cache_read_input_tokens } : {}),
              }))
            : null,
          container,
          contextManagement: null,
        };
        enqueue({ type: "finish", finishReason, usage: usageOf(usage, rawUsage ?? usage), providerMetadata: { anthropic } });
        return;
      }
      case "error": {
        const error = value.error;
        const known: { statusCode?: number; isRetryable?: boolean } = ERROR_TYPES[error.type] ?? {};
        enqueue({
          type: "error",
          error: createProviderStreamError({
            message: error.message,
            type: error.type,
            code: error.code ?? undefined,
            statusCode: error.statusCode ?? known.statusCode,
            isRetryable: error.isRetryable ?? known.isRetryable,
            data: "data" in error ? error.data : error,
          }),
        });
        return;
      }
      default:
        unread(value, `an event of type "${value.type}"`);
    }
  };

  return {
    start() {
      enqueue({ type: "stream-start", warnings });
    },
    event(data) {
      if (invalidSequence) return;
      let value: unknown;
      try {
        value = JSON.parse(data);
      } catch (cause) {
        enqueue({ type: "error", error: new JSONParseError({ text: data, cause }) });
        return;
      }
      if (typeof value !== "object" || value === null || typeof (value as { type?: unknown }).type !== "string") {
        enqueue({ type: "error", error: new InvalidResponseDataError({ data: value, message: "A streamed event is not a JSON object with a type." }) });
        return;
      }
      handle(value);
    },
    end() {
      if (hasOutput && !failed) {
        enqueue({ type: "finish", finishReason: { unified: "interrupted", raw: undefined }, usage: lastFinish?.usage ?? NO_USAGE, ...(lastFinish?.providerMetadata && { providerMetadata: lastFinish.providerMetadata }) });
      }
    },
  };
}
