import { encodeSseData, type SseFrame } from "@edge-web/shared";
import { insertRows } from "./insert-rows.ts";

export interface LoggedFrame {
  id: number;
  text: string;
}

export interface FrameLog {
  /** Numbers a frame and keeps `json` (its stored copy, already capped) for replay; answers the id. */
  append(kind: SseFrame["kind"], json: string): number;
  /** Frames after `lastId`, and whether some after it are no longer buffered. */
  since(lastId: number): { frames: LoggedFrame[]; gap: boolean; oldestId: number };
  lastId(): number;
  /** Writes the frames appended since the last flush; whether there were any. */
  flush(): boolean;
  clear(): void;
}

/** Ids are reserved in blocks, so a restart never hands out an id a lost, unflushed frame had. */
const RESERVE = 1_000;
/** Flushes between trims of the rows past `capacity`: replays never see more than `capacity` either way. */
const TRIM_EVERY = 32;

/**
 * The session's frames in SQLite, the newest `capacity` kept. Appends are held in memory until the
 * session flushes (once per call), so a frame goes out live without waiting for a storage commit;
 * replays see them either way. Ids never repeat, even across restarts.
 */
export function createFrameLog(sql: SqlStorage, capacity: number): FrameLog {
  sql.exec("CREATE TABLE IF NOT EXISTS frames (id INTEGER PRIMARY KEY, text TEXT NOT NULL)");
  sql.exec("CREATE TABLE IF NOT EXISTS frame_seq (k INTEGER PRIMARY KEY CHECK (k = 1), last INTEGER NOT NULL)");
  let reserved = sql.exec<{ last: number }>("SELECT last FROM frame_seq WHERE k = 1").toArray()[0]?.last ?? 0;
  let last = reserved;
  let pending: LoggedFrame[] = [];
  let flushes = 0;
  const reserve = (upTo: number) => {
    reserved = upTo + RESERVE;
    sql.exec("INSERT OR REPLACE INTO frame_seq (k, last) VALUES (1, ?)", reserved);
  };
  // A new log reserves its first block at once, in the commit that creates the session: its first
  // frame then waits for no commit of its own (which also held back the answer and requests sent with it).
  if (reserved === 0) reserve(0);
  return {
    append(kind, json) {
      const id = ++last;
      if (id > reserved) reserve(id);
      pending.push({ id, text: encodeSseData(id, kind, json) });
      return id;
    },
    since(after) {
      const stored = sql.exec<{ id: number; text: string }>("SELECT id, text FROM frames WHERE id > ? ORDER BY id", after).toArray();
      const frames = [...stored.map((f) => ({ id: f.id, text: f.text })), ...pending.filter((f) => f.id > after)].slice(-capacity);
      const oldestBuffered = sql.exec<{ id: number | null }>("SELECT MIN(id) AS id FROM frames").one().id ?? pending[0]?.id ?? last + 1;
      const oldestId = Math.max(oldestBuffered, frames[0]?.id ?? oldestBuffered);
      // A gap: frames after `after` existed but were trimmed, or the client claims ids we never sent.
      const gap = after > last || (after < last && oldestId > after + 1);
      return { frames, gap, oldestId };
    },
    lastId: () => last,
    flush() {
      if (pending.length === 0) return false;
      insertRows(sql, "frames (id, text)", pending.map((frame) => [frame.id, frame.text]));
      // By count, not by id: ids jump across a reserved block after a restart.
      if (++flushes % TRIM_EVERY === 0) sql.exec("DELETE FROM frames WHERE id <= (SELECT id FROM frames ORDER BY id DESC LIMIT 1 OFFSET ?)", capacity);
      pending = [];
      return true;
    },
    clear() {
      pending = [];
      sql.exec("DELETE FROM frames");
    },
  };
}
