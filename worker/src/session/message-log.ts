import type { ToolName } from "@edge-web/shared";
import { fitRow } from "./fit-row.ts";

/** A tool call as an AI SDK UI message: one assistant message with one tool part. */
export interface ToolUiMessage {
  id: string;
  role: "assistant";
  parts: Array<{
    type: `tool-${ToolName}`;
    toolCallId: string;
    state: "input-available" | "output-available" | "output-error";
    input: unknown;
    output?: unknown;
    errorText?: string;
  }>;
  metadata: { createdAt: number };
}

export interface MessageLog {
  put(message: ToolUiMessage): void;
  list(): ToolUiMessage[];
  count(): number;
  clear(): void;
}

/** The session's message history in SQLite, newest `capacity` kept; no row outgrows what a row may hold. */
export function createMessageLog(sql: SqlStorage, capacity: number): MessageLog {
  sql.exec("CREATE TABLE IF NOT EXISTS messages (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, body TEXT NOT NULL)");
  return {
    put(message) {
      const body = fitRow(message);
      sql.exec("INSERT INTO messages (id, body) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET body = excluded.body", message.id, body);
      // seq only grows, so the newest `capacity` are those within `capacity` of the largest (an index lookup).
      sql.exec("DELETE FROM messages WHERE seq <= (SELECT MAX(seq) FROM messages) - ?", capacity);
    },
    list() {
      return sql.exec<{ body: string }>("SELECT body FROM messages ORDER BY seq").toArray().map((r) => JSON.parse(r.body) as ToolUiMessage);
    },
    count() {
      return sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM messages").one().n;
    },
    clear() {
      sql.exec("DELETE FROM messages");
    },
  };
}
