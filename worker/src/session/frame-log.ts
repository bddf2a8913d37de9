import { encodeSseData, type SseFrame } from "@edge-web/shared";

export interface LoggedFrame {
  id: number;
  text: string;
}

export interface FrameLog {
  /** Numbers a frame and keeps `json` (its stored copy, already capped) in the replay buffer; answers the id. */
  append(kind: SseFrame["kind"], json: string): number;
  /** Frames after `lastId`, and whether some after it are no longer buffered. */
  since(lastId: number): { frames: LoggedFrame[]; gap: boolean; oldestId: number };
  lastId(): number;
  clear(): void;
}

/** The session's frames in SQLite: ids never repeat, even across restarts; the newest `capacity` are kept. */
export function createFrameLog(sql: SqlStorage, capacity: number): FrameLog {
  sql.exec("CREATE TABLE IF NOT EXISTS frames (id INTEGER PRIMARY KEY, text TEXT NOT NULL)");
  sql.exec("CREATE TABLE IF NOT EXISTS frame_seq (k INTEGER PRIMARY KEY CHECK (k = 1), last INTEGER NOT NULL)");
  let last = sql.exec<{ last: number }>("SELECT last FROM frame_seq WHERE k = 1").toArray()[0]?.last ?? 0;
  return {
    append(kind, json) {
      const id = ++last;
      sql.exec("INSERT OR REPLACE INTO frame_seq (k, last) VALUES (1, ?)", id);
      sql.exec("INSERT INTO frames (id, text) VALUES (?, ?)", id, encodeSseData(id, kind, json));
      sql.exec("DELETE FROM frames WHERE id <= ?", id - capacity);
      return id;
    },
    since(after) {
      const frames = sql.exec<{ id: number; text: string }>("SELECT id, text FROM frames WHERE id > ? ORDER BY id", after).toArray();
      const oldestId = sql.exec<{ id: number | null }>("SELECT MIN(id) AS id FROM frames").toArray()[0]?.id ?? last + 1;
      // A gap: frames after `after` existed but were trimmed, or the client claims ids we never sent.
      const gap = after > last || (after < last && oldestId > after + 1);
      return { frames: frames.map((f) => ({ id: f.id, text: f.text })), gap, oldestId };
    },
    lastId: () => last,
    clear() {
      sql.exec("DELETE FROM frames");
    },
  };
}
