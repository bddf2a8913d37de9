import type { SessionMessage, ToolUiMessage } from "@edge-web/shared";
import { fitRow } from "./fit-row.ts";

export interface MessageLog {
  /** Records a message (or its newer state); it is written with the session's next flush. */
  put(message: SessionMessage | ToolUiMessage): void;
  list(): SessionMessage[];
  count(): number;
  /** The roles of the history's messages, in order, read without parsing the messages. */
  roles(): string[];
  /** Drops the message `id` and every later one (nothing when there is no such message). */
  truncateFrom(id: string): void;
  /** Writes what was put since the last flush. */
  flush(): void;
  clear(): void;
}

/**
 * The session's message history in SQLite, newest `capacity` kept; no row outgrows what a row may
 * hold. Puts are held in memory until the session flushes (once per call), and reads see them.
 */
export function createMessageLog(sql: SqlStorage, capacity: number): MessageLog {
  sql.exec("CREATE TABLE IF NOT EXISTS messages (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, body TEXT NOT NULL)");
  /** id → JSON, in the order first put; `fresh` are those not stored yet. */
  const pending = new Map<string, string>();
  const fresh = new Set<string>();
  const stored = (id: string) => sql.exec("SELECT 1 FROM messages WHERE id = ?", id).toArray().length > 0;
  return {
    put(message) {
      if (!pending.has(message.id) && !stored(message.id)) fresh.add(message.id);
      pending.set(message.id, fitRow(message));
    },
    list() {
      const rows = sql.exec<{ id: string; body: string }>("SELECT id, body FROM messages ORDER BY seq").toArray();
      const bodies = rows.map((row) => pending.get(row.id) ?? row.body);
      for (const id of fresh) bodies.push(pending.get(id)!);
      return bodies.slice(-capacity).map((body) => JSON.parse(body) as SessionMessage);
    },
    roles() {
      // A message's role never changes, so a stored row's role holds for its pending newer state too.
      const rows = sql.exec<{ role: string }>("SELECT json_extract(body, '$.role') AS role FROM messages ORDER BY seq").toArray();
      const roles = rows.map((row) => row.role);
      for (const id of fresh) roles.push((JSON.parse(pending.get(id)!) as SessionMessage).role);
      return roles.slice(-capacity);
    },
    count() {
      return Math.min(capacity, sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM messages").one().n + fresh.size);
    },
    truncateFrom(id) {
      this.flush();
      const row = sql.exec<{ seq: number }>("SELECT seq FROM messages WHERE id = ?", id).toArray()[0];
      if (row) sql.exec("DELETE FROM messages WHERE seq >= ?", row.seq);
    },
    flush() {
      if (pending.size === 0) return;
      for (const [id, body] of pending) {
        sql.exec("INSERT INTO messages (id, body) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET body = excluded.body", id, body);
      }
      pending.clear();
      fresh.clear();
      // seq only grows, so the newest `capacity` are those within `capacity` of the largest (an index lookup).
      sql.exec("DELETE FROM messages WHERE seq <= (SELECT MAX(seq) FROM messages) - ?", capacity);
    },
    clear() {
      pending.clear();
      fresh.clear();
      sql.exec("DELETE FROM messages");
    },
  };
}
