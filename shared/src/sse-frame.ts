import type { CompactionData } from "./compaction.ts";
import type { CrawlEvent } from "./crawl-schemas.ts";

/**
 * The UI-message chunks a session streams: those of pi-web's protocol (its frame schema, protocol
 * 0.1.0), which a client of it parses with the AI SDK v5: the lifecycle, text, reasoning and tool
 * chunks of AI SDK v5 and pi's `data-pi-*` parts. Fields the protocol does not name are additive (a
 * client of the protocol drops them). A turn's AI SDK v7 chunks are mapped to these
 * (worker/src/agent/to-protocol-chunks.ts); steers and follow-ups show as `data-pi-queue`,
 * compactions as `data-pi-compaction`.
 */
export type UiMessageChunk =
  | { type: "start"; messageId?: string }
  | { type: "finish"; finishReason?: string }
  | { type: "abort" }
  | { type: "error"; errorText: string }
  | { type: "start-step" }
  | { type: "finish-step" }
  | { type: "text-start" | "text-end" | "reasoning-start" | "reasoning-end"; id: string; providerMetadata?: unknown }
  | { type: "text-delta" | "reasoning-delta"; id: string; delta: string; providerMetadata?: unknown }
  | { type: "tool-input-start"; toolCallId: string; toolName: string; dynamic?: boolean; providerExecuted?: boolean }
  | { type: "tool-input-delta"; toolCallId: string; inputTextDelta: string }
  | { type: "tool-input-available"; toolCallId: string; toolName: string; input: unknown; dynamic?: boolean; providerExecuted?: boolean; providerMetadata?: unknown }
  | { type: "tool-output-available"; toolCallId: string; output: unknown; preliminary?: boolean; providerExecuted?: boolean }
  | { type: "tool-output-error"; toolCallId: string; errorText: string; providerExecuted?: boolean }
  /** The messages waiting for the model changed (pi's queue_update). */
  | { type: "data-pi-queue"; data: QueueData }
  /** A compaction of the model's context (shared/src/compaction.ts); `id` is the compaction's. */
  | { type: "data-pi-compaction"; id: string; data: CompactionData }
  /** A crawl of the session started, settled a page, or finished (shared/src/crawl-schemas.ts). */
  | { type: "data-crawl"; data: CrawlEvent };

/**
 * The data of a `data-pi-queue` chunk: the texts of the messages waiting, steers (they join the
 * running turn's next model call) and follow-ups (each runs as a turn of its own), in the order they
 * will be taken. `delivered` (ours, additive): the steers that left the queue at this point of the
 * turn because its next model call took them; the history keeps them there as the user's messages.
 */
export interface QueueData {
  steering: string[];
  followUp: string[];
  delivered?: string[];
}

/**
 * A request for the user (pi's extension UI request), answered with POST /ui-response (`confirm`:
 * confirmed or not). `toolCallId` (ours, additive): the tool call an approval is about.
 */
export interface ExtensionUiRequest {
  type: "extension_ui_request";
  id: string;
  method: "confirm";
  title: string;
  message: string;
  toolCallId?: string;
}

/** The answer to a POST /ui-rpc, paired with its request by `correlationId`. */
export type UiRpcResponse = { correlationId: string; ok: true; result: unknown } | { correlationId: string; ok: false; error: { code: string; message: string } };

/**
 * Control payloads, told apart by `control` (those of pi-web's protocol). A replay that cannot
 * start right after Last-Event-ID is an `error` with code `resync`, saying where the buffered
 * frames start (`lastEventId`, `oldestAvailableId`: ours, additive).
 */
export type ControlPayload =
  | { control: "error"; message: string; code: string }
  | { control: "error"; code: "resync"; message: string; lastEventId: number; oldestAvailableId: number }
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
