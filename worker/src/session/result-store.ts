import type { StoredResult } from "@edge-web/shared";

export interface ResultStore {
  /** Saves a result and evicts the oldest beyond `maxStored`. */
  save(result: StoredResult, maxStored: number): void;
  get(responseId: string): StoredResult | undefined;
  clear(): void;
}

/** Stored results in the session Durable Object's SQLite storage. */
export function createResultStore(sql: SqlStorage): ResultStore {
  sql.exec(`CREATE TABLE IF NOT EXISTS results (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    response_id TEXT NOT NULL UNIQUE,
    body TEXT NOT NULL
  )`);
  return {
    save(result, maxStored) {
      sql.exec("INSERT INTO results (response_id, body) VALUES (?, ?)", result.responseId, JSON.stringify(result));
      // seq only grows, so the newest `maxStored` are those within `maxStored` of the largest (an index lookup).
      sql.exec("DELETE FROM results WHERE seq <= (SELECT MAX(seq) FROM results) - ?", maxStored);
    },
    get(responseId) {
      const row = sql.exec<{ body: string }>("SELECT body FROM results WHERE response_id = ?", responseId).toArray()[0];
      return row ? (JSON.parse(row.body) as StoredResult) : undefined;
    },
    clear() {
      sql.exec("DELETE FROM results");
    },
  };
}
