import { UI_MESSAGE_CHUNK_TYPES, type UiMessageChunk } from "@edge-web/shared";
import type { UIMessageChunk } from "ai";

const KNOWN = new Set<string>(UI_MESSAGE_CHUNK_TYPES);

/**
 * A turn's AI SDK chunk as the session streams it (shared/src/sse-frame.ts): the chunk types a
 * client of the reference understands pass; a steered message becomes a `data-steer` chunk (data
 * parts are part of that protocol); provider-specific `custom` chunks, `reset-step` and
 * `reasoning-file` are dropped.
 */
export function toProtocolChunk(chunk: UIMessageChunk): UiMessageChunk | undefined {
  if (chunk.type === "steering-message") {
    const text = chunk.parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
    return { type: "data-steer", id: chunk.id, data: { text } };
  }
  if (chunk.type.startsWith("data-") || KNOWN.has(chunk.type)) return chunk as UiMessageChunk;
  return undefined;
}
