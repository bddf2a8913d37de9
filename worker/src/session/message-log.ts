import type { SessionMessage, ToolUiMessage } from "@edge-web/shared";
import { fitRow } from "./fit-row.ts";
import { insertRows } from "./insert-rows.ts";

export interface MessageLog {
  /** Records a message (or its newer state); it is written with the session's next flush. */
  put(message: SessionMessage | ToolUiMessage): void;
  /**
   * The history; from message `from` on when given and found (a compaction's first kept message:
   * what comes before it never reaches the model again), else all of it.
   */
  list(from?: string): SessionMessage[];
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
 * put costs no storage statement, a flush one for the messages it writes.
 */
export function createMessageLog(sql: SqlStorage, capacity: number): MessageLog {
  sql.exec("CREATE TABLE IF NOT EXISTS messages (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, body TEXT NOT NULL)");
  /** id → JSON, in the order first put. */
  const pending = new Map<string, string>();
  let flushes = 0;
  const isStored = (id: string) => sql.exec("SELECT 1 FROM messages WHERE id = ?", id).toArray().length > 0;
  /**
   * The stored rows (`column` as extracted by SQL) with the pending newer states over them and
   * pending new ones after them; `all` false when the rows are only the latest, so a pending
   * message missing from them may be an earlier one's newer state.
   */
  const merged = <T>(rows: Array<{ id: string; value: T }>, fromPending: (json: string) => T, all = true): T[] => {
    const stored = new Set<string>();
    const values = rows.map((row) => {
      stored.add(row.id);
      const newer = pending.get(row.id);
      return newer === undefined ? row.value : fromPending(newer);
    });
    for (const [id, json] of pending) if (!stored.has(id) && (all || !isStored(id))) values.push(fromPending(json));
    return values.slice(-capacity);
  };
  const parsed = (rows: Array<{ id: string; value: string }>, all?: boolean) => merged(rows, (json) => json, all).map((body) => JSON.parse(body) as SessionMessage);
  return {
    put(message) {
      pending.set(message.id, fitRow(message));
    },
    list(from) {
      const latest = from === undefined ? [] : sql.exec<{ id: string; value: string }>("SELECT id, body AS value FROM messages WHERE seq >= (SELECT seq FROM messages WHERE id = ?) ORDER BY seq", from).toArray();
      return latest.length > 0 ? parsed(latest, false) : parsed(sql.exec<{ id: string; value: string }>("SELECT id, body AS value FROM messages ORDER BY seq").toArray());
    },
    roles() {
      // A message's role never changes, so a stored row's role holds for its pending newer state too.
      const rows = sql.exec<{ id: string; value: string }>("SELECT id, json_extract(body, '$.role') AS value FROM messages ORDER BY seq").toArray();
      return merged(rows, (json) => (JSON.parse(json) as SessionMessage).role);
    },
    count() {
      const stored = sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM messages").one().n;
      let fresh = 0;
      for (const id of pending.keys()) if (!isStored(id)) fresh++;
      return Math.min(capacity, stored + fresh);
    },
    truncateFrom(id) {
      this.flush();
      const row = sql.exec<{ seq: number }>("SELECT seq FROM messages WHERE id = ?", id).toArray()[0];
      if (row) sql.exec("DELETE FROM messages WHERE seq >= ?", row.seq);
    },
    flush() {
      if (pending.size === 0) return false;
      insertRows(sql, "messages (id, body)", [...pending], "ON CONFLICT(id) DO UPDATE SET body = excluded.body");
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
