import type { ControlPayload, SessionMessage, UiMessageChunk } from "@edge-web/shared";

/**
 * Where a turn or a direct tool call sends what it produces: chunks and control frames to the
 * session's stream (and its replay log), messages to its history. The session's stream makes one
 * per call or turn (session/session-stream.ts); once the session is deleted it keeps nothing.
 */
export interface OutputSink {
  /** A chunk of the assistant's message, streamed live. */
  chunk(chunk: UiMessageChunk): void;
  /** A control frame (approval requests, UI answers) on the stream. */
  control(payload: ControlPayload): void;
  /** A message of the history in its latest state (the same id replaces it). */
  message(message: SessionMessage): void;
}
