import type { ToolName } from "./tool-schemas.ts";

/** The AI SDK UI-message chunk types a session emits for tool calls. */
export type UiMessageChunk =
  | { type: "start"; messageId: string }
  | { type: "tool-input-available"; toolCallId: string; toolName: ToolName; input: unknown }
  | { type: "tool-output-available"; toolCallId: string; output: unknown }
  | { type: "tool-output-error"; toolCallId: string; errorText: string }
  | { type: "finish" };

/** Control payloads, told apart by `control`. */
export type ControlPayload =
  | { control: "error"; message: string; code: string }
  | { control: "resync"; message: string; lastEventId: number; oldestAvailableId: number };

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
