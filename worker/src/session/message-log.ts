import type { SessionMessage, ToolUiMessage } from "@edge-web/shared";
import { fitRow } from "./fit-row.ts";
import { insertRows } from "./insert-rows.ts";

/** A message of the history by id, and its revision (it changes whenever the message is stored again). */
export interface MessageRevision {
  id: string;
  revision: number;
}

export interface MessageLog {
  /** Records a message (or its newer state); it is written with the session's next flush. */
  put(message: SessionMessage | ToolUiMessage): void;
  /**
   * The history; from message `from` on when given and found (a compaction's first kept message:
   * what comes before it never reaches the model again), else all of it.
   */
  list(from?: string): SessionMessage[];
  /**
   * The same messages as `list(from)`, as ids with revisions and without reading their bodies: a
   * message's revision changes whenever it is put again (0: not put since the log was opened), so
   * what was made from a message can be kept for as long as its revision holds.
   */
  revisions(from?: string): MessageRevision[];
  /** The messages `ids` (their latest states), in that order; ids no longer in the history are left out. */
  read(ids: readonly string[]): SessionMessage[];
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
  /** id → the revision of its latest put; the counter only grows, so a revision is never given twice. */
  const putRevisions = new Map<string, number>();
  let revision = 0;
  let flushes = 0;
  const isStored = (id: string) => sql.exec("SELECT 1 FROM messages WHERE id = ?", id).toArray().length > 0;
  /**
   * The stored rows (`column` as extracted by SQL) with the pending newer states over them and
   * pending new ones after them; `all` false when the rows are only the latest, so a pending
   * message missing from them may be an earlier one's newer state.
   */
  const merged = <T>(rows: Array<{ id: string; value: T }>, fromPending: (json: string, id: string) => T, all = true): T[] => {
    const stored = new Set<string>();
    const values = rows.map((row) => {
      stored.add(row.id);
      const newer = pending.get(row.id);
      return newer === undefined ? row.value : fromPending(newer, row.id);
    });
    for (const [id, json] of pending) if (!stored.has(id) && (all || !isStored(id))) values.push(fromPending(json, id));
    return values.slice(-capacity);
  };
  const parsed = (rows: Array<{ id: string; value: string }>, all?: boolean) => merged(rows, (json) => json, all).map((body) => JSON.parse(body) as SessionMessage);
  /** `list(from)`'s rows, `column` of each: from `from` on when found (and `all` false), else all of them. */
  const rowsFrom = (from: string | undefined, column: string) => {
    const latest = from === undefined ? [] : sql.exec<{ id: string; value: string }>(`SELECT id, ${column} AS value FROM messages WHERE seq >= (SELECT seq FROM messages WHERE id = ?) ORDER BY seq`, from).toArray();
    return latest.length > 0 ? { rows: latest, all: false } : { rows: sql.exec<{ id: string; value: string }>(`SELECT id, ${column} AS value FROM messages ORDER BY seq`).toArray(), all: true };
  };
  return {
    put(message) {
      pending.set(message.id, fitRow(message));
      // Forgetting revisions is always safe (what was kept under one is made again), so the map stays within the history's size.
      if (putRevisions.size >= 2 * capacity) putRevisions.clear();
      putRevisions.set(message.id, ++revision);
    },
    list(from) {
      const { rows, all } = rowsFrom(from, "body");
      return parsed(rows, all);
    },
    revisions(from) {
      const { rows, all } = rowsFrom(from, "id");
      return merged(rows, (_json, id) => id, all).map((id) => ({ id, revision: putRevisions.get(id) ?? 0 }));
    },
    read(ids) {
      const bodies = new Map<string, string>();
      const unsent = ids.filter((id) => !pending.has(id));
      if (unsent.length > 0) {
        for (const row of sql.exec<{ id: string; body: string }>("SELECT id, body FROM messages WHERE id IN (SELECT value FROM json_each(?))", JSON.stringify(unsent))) bodies.set(row.id, row.body);
      }
      return ids.flatMap((id) => {
        const body = pending.get(id) ?? bodies.get(id);
        return body === undefined ? [] : [JSON.parse(body) as SessionMessage];
      });
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
