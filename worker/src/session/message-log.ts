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
  /** Writes what was put since the last flush; whether there was any. */
  flush(): boolean;
  clear(): void;
}

/** Flushes between trims of the rows past `capacity`: readers never see more than `capacity` either way. */
const TRIM_EVERY = 32;

/**
 * The session's message history in SQLite, newest `capacity` kept; no row outgrows what a row may
 * hold. Puts are held in memory until the session flushes (once per call), and reads see them: a
 * put costs no storage statement, a flush one per message it writes.
 */
export function createMessageLog(sql: SqlStorage, capacity: number): MessageLog {
  sql.exec("CREATE TABLE IF NOT EXISTS messages (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, body TEXT NOT NULL)");
  /** id → JSON, in the order first put. */
  const pending = new Map<string, string>();
  let flushes = 0;
  /** The stored rows (`column` as extracted by SQL) with the pending newer states over them and pending new ones after them. */
  const merged = <T>(rows: Array<{ id: string; value: T }>, fromPending: (json: string) => T): T[] => {
    const stored = new Set<string>();
    const values = rows.map((row) => {
      stored.add(row.id);
      const newer = pending.get(row.id);
      return newer === undefined ? row.value : fromPending(newer);
    });
    for (const [id, json] of pending) if (!stored.has(id)) values.push(fromPending(json));
    return values.slice(-capacity);
  };
  return {
    put(message) {
      pending.set(message.id, fitRow(message));
    },
    list() {
      const rows = sql.exec<{ id: string; value: string }>("SELECT id, body AS value FROM messages ORDER BY seq").toArray();
      return merged(rows, (json) => json).map((body) => JSON.parse(body) as SessionMessage);
    },
    roles() {
      // A message's role never changes, so a stored row's role holds for its pending newer state too.
      const rows = sql.exec<{ id: string; value: string }>("SELECT id, json_extract(body, '$.role') AS value FROM messages ORDER BY seq").toArray();
      return merged(rows, (json) => (JSON.parse(json) as SessionMessage).role);
    },
    count() {
      const stored = sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM messages").one().n;
      let fresh = 0;
      for (const id of pending.keys()) if (sql.exec("SELECT 1 FROM messages WHERE id = ?", id).toArray().length === 0) fresh++;
      return Math.min(capacity, stored + fresh);
    },
    truncateFrom(id) {
      this.flush();
      const row = sql.exec<{ seq: number }>("SELECT seq FROM messages WHERE id = ?", id).toArray()[0];
      if (row) sql.exec("DELETE FROM messages WHERE seq >= ?", row.seq);
    },
    flush() {
      if (pending.size === 0) return false;
      for (const [id, body] of pending) {
        sql.exec("INSERT INTO messages (id, body) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET body = excluded.body", id, body);
      }
      pending.clear();
      // seq only grows, so the newest `capacity` are those within `capacity` of the largest (an index lookup).
      if (++flushes % TRIM_EVERY === 0) sql.exec("DELETE FROM messages WHERE seq <= (SELECT MAX(seq) FROM messages) - ?", capacity);
      return true;
    },
    clear() {
      pending.clear();
      sql.exec("DELETE FROM messages");
    },
  };
}
