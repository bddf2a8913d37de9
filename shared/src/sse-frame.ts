import type { CompactionData } from "./compaction.ts";

/**
 * The UI-message chunks a session streams: the AI SDK v5 chunk types a client of the reference
 * understands, plus the tool-approval chunks. A turn's AI SDK v7 chunks are filtered to these:
 * provider-specific `custom` chunks, `reset-step` and `reasoning-file` are dropped, and a
 * `steering-message` becomes a `data-steer` chunk. Compactions stream as `data-compaction` chunks.
 */
export type UiMessageChunk =
  | { type: "start"; messageId?: string; messageMetadata?: unknown }
  | { type: "finish"; finishReason?: string; messageMetadata?: unknown }
  | { type: "abort"; reason?: string }
  | { type: "error"; errorText: string }
  | { type: "start-step" }
  | { type: "finish-step" }
  | { type: "message-metadata"; messageMetadata: unknown }
  | { type: "text-start" | "text-end" | "reasoning-start" | "reasoning-end"; id: string; providerMetadata?: unknown }
  | { type: "text-delta" | "reasoning-delta"; id: string; delta: string; providerMetadata?: unknown }
  | { type: "tool-input-start"; toolCallId: string; toolName: string; dynamic?: boolean }
  | { type: "tool-input-delta"; toolCallId: string; inputTextDelta: string }
  | { type: "tool-input-available"; toolCallId: string; toolName: string; input: unknown; dynamic?: boolean }
  | { type: "tool-input-error"; toolCallId: string; toolName: string; input: unknown; errorText: string }
  | { type: "tool-approval-request"; approvalId: string; toolCallId: string }
  | { type: "tool-approval-response"; approvalId: string; approved: boolean; reason?: string }
  | { type: "tool-output-available"; toolCallId: string; output: unknown; preliminary?: boolean }
  | { type: "tool-output-error"; toolCallId: string; errorText: string }
  | { type: "tool-output-denied"; toolCallId: string }
  | { type: "source-url"; sourceId: string; url: string; title?: string }
  | { type: "source-document"; sourceId: string; mediaType: string; title: string; filename?: string }
  | { type: "file"; url: string; mediaType: string }
  /** A compaction of the model's context (shared/src/compaction.ts); `id` is the compaction's. */
  | { type: "data-compaction"; id: string; data: CompactionData }
  | { type: `data-${string}`; id?: string; data: unknown; transient?: boolean };

/** The chunk types of that union, for filtering what a model stream yields. */
export const UI_MESSAGE_CHUNK_TYPES = [
  "start",
  "finish",
  "abort",
  "error",
  "start-step",
  "finish-step",
  "message-metadata",
  "text-start",
  "text-delta",
  "text-end",
  "reasoning-start",
  "reasoning-delta",
  "reasoning-end",
  "tool-input-start",
  "tool-input-delta",
  "tool-input-available",
  "tool-input-error",
  "tool-approval-request",
  "tool-approval-response",
  "tool-output-available",
  "tool-output-error",
  "tool-output-denied",
  "source-url",
  "source-document",
  "file",
] as const;

/** A request for the user, answered with POST /ui-response (`confirm`: confirmed or not). */
export interface ExtensionUiRequest {
  id: string;
  method: "confirm";
  title: string;
  message: string;
}

/** The answer to a POST /ui-rpc, paired with its request by `correlationId`. */
export type UiRpcResponse = { correlationId: string; ok: true; result: unknown } | { correlationId: string; ok: false; error: { code: string; message: string } };

/** Control payloads, told apart by `control`. */
export type ControlPayload =
  | { control: "error"; message: string; code: string }
  | { control: "resync"; message: string; lastEventId: number; oldestAvailableId: number }
  | { control: "extension-ui"; request: ExtensionUiRequest }
  | { control: "ui-rpc"; response: UiRpcResponse };

export type SseFrame =
  | { kind: "uiMessageChunk"; protocolVersion: string; chunk: UiMessageChunk }
  | { kind: "control"; protocolVersion: string; payload: ControlPayload };

/** One frame on the wire: `event:` is the frame's kind, `id:` its sequence number. */
export function encodeSseFrame(id: number | undefined, frame: SseFrame): string {
  return encodeSseData(id, frame.kind, JSON.stringify(frame));
}

/** A frame whose JSON is already written (`json` holds no newline: JSON.stringify escapes them). */
export function encodeSseData(id: number | undefined, kind: SseFrame["kind"], json: string): string {
  return `event: ${kind}\n${id === undefined ? "" : `id: ${id}\n`}data: ${json}\n\n`;
}

export const SSE_KEEP_ALIVE = ": keep-alive\n\n";
