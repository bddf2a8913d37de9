import type { UiMessageChunk } from "@edge-web/shared";
import type { UIMessageChunk } from "ai";

/** The AI SDK chunk types a turn passes on as they are: AI SDK v5's, which pi-web's protocol names. */
const PASSED = new Set<string>([
  "start",
  "finish",
  "abort",
  "error",
  "start-step",
  "finish-step",
  "text-start",
  "text-delta",
  "text-end",
  "reasoning-start",
  "reasoning-delta",
  "reasoning-end",
  "tool-input-start",
  "tool-input-delta",
  "tool-input-available",
  "tool-output-available",
  "tool-output-error",
] satisfies Array<UiMessageChunk["type"]>);

/**
 * A turn's AI SDK v7 chunk as the session streams it (shared/src/sse-frame.ts): the chunk types
 * pi-web's protocol names pass; a call the model made with invalid input (`tool-input-error`, which
 * the protocol's AI SDK v5 does not know) becomes the call's input and its error, as a client
 * rebuilds it either way; provider-specific `custom` chunks, files, sources and `reset-step` are
 * dropped.
 */
export function toProtocolChunks(chunk: UIMessageChunk): UiMessageChunk[] {
  if (chunk.type === "tool-input-error") {
    const { type: _, errorText, ...call } = chunk;
    const { toolCallId, providerExecuted } = call;
    return [
      { ...call, type: "tool-input-available" },
      { type: "tool-output-error", toolCallId, errorText, ...(providerExecuted != null && { providerExecuted }) },
    ];
  }
  return PASSED.has(chunk.type) ? [chunk as UiMessageChunk] : [];
}
