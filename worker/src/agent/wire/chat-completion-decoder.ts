import type { LanguageModelV4FinishReason, SharedV4ProviderMetadata, SharedV4Warning } from "@ai-sdk/provider";
import { convertOpenAICompatibleChatUsage, getResponseMetadata, mapOpenAICompatibleFinishReason } from "@ai-sdk/openai-compatible/internal";
import { generateId, StreamingToolCallTracker, type StreamingToolCallDelta } from "@ai-sdk/provider-utils";
import { InvalidResponseDataError, JSONParseError } from "ai";
import type { EnqueuePart, EventDecoder } from "./event-stream-parts.ts";

/** A tool call's piece as Chat Completions streams it (Gemini's servers add a thought signature). */
interface ToolCallDelta extends StreamingToolCallDelta {
  extra_content?: { google?: { thought_signature?: unknown } | null } | null;
}

/** A tool call whose name has not come yet: its pieces wait for it. */
interface Unnamed {
  id: string | null;
  args: string;
  extra: ToolCallDelta["extra_content"];
}

type Usage = Parameters<typeof convertOpenAICompatibleChatUsage>[0] & {
  completion_tokens_details?: { accepted_prediction_tokens?: number | null; rejected_prediction_tokens?: number | null } | null;
};

const TEXT = "txt-0";
const REASONING = "reasoning-0";

const isObject = (value: unknown): value is Record<string, any> => typeof value === "object" && value !== null && !Array.isArray(value);
const nonEmpty = (value: unknown): value is string => typeof value === "string" && value.length > 0;

/** A delta's content, a string or a list of parts (text, or a "thinking" part's text pieces), as text and reasoning pieces in order. */
function contentPieces(content: unknown): Array<{ reasoning: boolean; text: string }> {
  if (nonEmpty(content)) return [{ reasoning: false, text: content }];
  if (!Array.isArray(content)) return [];
  const pieces: Array<{ reasoning: boolean; text: string }> = [];
  for (const part of content) {
    if (!isObject(part)) continue;
    if (part.type === "text" && nonEmpty(part.text)) pieces.push({ reasoning: false, text: part.text });
    else if (part.type === "thinking" && Array.isArray(part.thinking)) {
      const text = part.thinking.map((piece: unknown) => (isObject(piece) && piece.type === "text" && typeof piece.text === "string" ? piece.text : "")).join("");
      if (text) pieces.push({ reasoning: true, text });
    }
  }
  return pieces;
}

/**
 * The parts of a Chat Completions answer (OpenAI's streaming format, as compatible servers speak it),
 * decoded event by event: text, reasoning (`reasoning_content` or `reasoning`, or "thinking" content
 * parts), refusals, tool calls, response metadata, usage and the finish reason. Tool-call pieces go
 * to the AI SDK's tracker, which pairs pieces with their call however a server numbers, names or
 * leaves out their ids; pieces sent before their call's name wait for it. An `error` chunk, or one
 * that is not JSON, is an error part and makes the finish an error unless a finish reason came.
 * The parts are those the AI SDK's own provider makes of the same answer, with two leniencies:
 * a chunk without `choices` (some servers send usage so) and a last event not ended by a blank
 * line are read, not refused.
 */
export function chatCompletionDecoder(options: { warnings: SharedV4Warning[]; metadataKey: string }, enqueue: EnqueuePart): EventDecoder {
  const { metadataKey } = options;
  const tracker = new StreamingToolCallTracker<ToolCallDelta>(
    { enqueue },
    {
      generateId,
      extractMetadata: (delta) => {
        const signature = delta.extra_content?.google?.thought_signature;
        return nonEmpty(signature) ? { [metadataKey]: { thoughtSignature: signature } } : undefined;
      },
      buildToolCallProviderMetadata: (metadata) => metadata,
    },
  );
  const unnamed = new Map<number, Unnamed>();
  const named = new Set<number>();
  let open: "text" | "reasoning" | undefined;
  let metadataSent = false;
  let usage: Usage | undefined;
  let rawFinish: string | undefined;
  let failed = false;
  let refused = false;

  const close = (kind: "text" | "reasoning") => {
    if (open !== kind) return;
    enqueue(kind === "text" ? { type: "text-end", id: TEXT } : { type: "reasoning-end", id: REASONING });
    open = undefined;
  };
  const piece = (reasoning: boolean, delta: string) => {
    const kind = reasoning ? "reasoning" : "text";
    close(reasoning ? "text" : "reasoning");
    if (open !== kind) {
      enqueue(reasoning ? { type: "reasoning-start", id: REASONING } : { type: "text-start", id: TEXT });
      open = kind;
    }
    enqueue(reasoning ? { type: "reasoning-delta", id: REASONING, delta } : { type: "text-delta", id: TEXT, delta });
  };
  /** A numbered call's pieces before its name are held, then handed over with it as one piece. */
  const toolCallDelta = (delta: ToolCallDelta) => {
    const index = typeof delta.index === "number" ? delta.index : undefined;
    if (index === undefined || named.has(index)) return tracker.processDelta(delta);
    let held = unnamed.get(index);
    if (!held) unnamed.set(index, (held = { id: delta.id ?? null, args: "", extra: delta.extra_content ?? null }));
    held.id ??= delta.id ?? null;
    held.extra ??= delta.extra_content ?? null;
    if (typeof delta.function?.arguments === "string") held.args += delta.function.arguments;
    const name = delta.function?.name;
    if (name == null) return;
    unnamed.delete(index);
    named.add(index);
    tracker.processDelta({ index, id: held.id, function: { name, arguments: held.args }, ...(held.extra && { extra_content: held.extra }) });
  };
  const fail = (error: unknown) => {
    failed = true;
    rawFinish = undefined;
    enqueue({ type: "error", error });
  };

  return {
    start() {
      enqueue({ type: "stream-start", warnings: options.warnings });
    },
    event(data) {
      if (data === "[DONE]") return;
      let chunk: unknown;
      try {
        chunk = JSON.parse(data);
      } catch (cause) {
        return fail(new JSONParseError({ text: data, cause }));
      }
      if (!isObject(chunk)) return fail(new InvalidResponseDataError({ data: chunk, message: "A streamed chunk is not a JSON object." }));
      if ("error" in chunk) return fail(chunk.error);
      if (!metadataSent && (chunk.id || chunk.model || chunk.created)) {
        metadataSent = true;
        const id = typeof chunk.id === "string" ? chunk.id : undefined;
        const model = typeof chunk.model === "string" ? chunk.model : undefined;
        const created = typeof chunk.created === "number" ? chunk.created : undefined;
        enqueue({ type: "response-metadata", ...getResponseMetadata({ id, model, created }) });
      }
      if (isObject(chunk.usage)) usage = chunk.usage;
      const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
      if (!isObject(choice)) return;
      if (typeof choice.finish_reason === "string") rawFinish = choice.finish_reason;
      const delta = choice.delta;
      if (!isObject(delta)) return;
      const reasoning = delta.reasoning_content ?? delta.reasoning;
      if (nonEmpty(reasoning)) piece(true, reasoning);
      for (const { reasoning, text } of contentPieces(delta.content)) piece(reasoning, text);
      if (nonEmpty(delta.refusal)) {
        refused = true;
        piece(false, delta.refusal);
      }
      if (Array.isArray(delta.tool_calls) && delta.tool_calls.length > 0) {
        close("reasoning");
        for (const call of delta.tool_calls) if (isObject(call)) toolCallDelta(call);
      }
    },
    end() {
      close("reasoning");
      close("text");
      for (const [index, held] of unnamed) tracker.processDelta({ index, id: held.id, function: { arguments: held.args } });
      unnamed.clear();
      tracker.flush();
      let finishReason: LanguageModelV4FinishReason;
      if (rawFinish !== undefined) finishReason = { unified: mapOpenAICompatibleFinishReason(rawFinish, { hasRefusal: refused }), raw: rawFinish };
      else {
        finishReason = { unified: "error", raw: undefined };
        if (!failed) enqueue({ type: "error", error: new InvalidResponseDataError({ data: undefined, message: "Response stream ended without a finish reason." }) });
      }
      const details = usage?.completion_tokens_details;
      const metadata: SharedV4ProviderMetadata[string] = {};
      if (details?.accepted_prediction_tokens != null) metadata.acceptedPredictionTokens = details.accepted_prediction_tokens;
      if (details?.rejected_prediction_tokens != null) metadata.rejectedPredictionTokens = details.rejected_prediction_tokens;
      enqueue({ type: "finish", finishReason, usage: convertOpenAICompatibleChatUsage(usage), providerMetadata: { [metadataKey]: metadata } });
    },
  };
}
