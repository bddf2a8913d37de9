import type { StoredResult } from "@edge-web/shared";
import type { ResultStore } from "../tools/tool.ts";
import { fitRow } from "./fit-row.ts";

export interface SessionResultStore extends ResultStore {
  clear(): void;
}

/** Stored results in the session Durable Object's SQLite storage; no row outgrows what a row may hold. */
export function createResultStore(sql: SqlStorage): SessionResultStore {
  sql.exec(`CREATE TABLE IF NOT EXISTS results (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    response_id TEXT NOT NULL UNIQUE,
    body TEXT NOT NULL
  )`);
  return {
    save(result, maxStored) {
      sql.exec("INSERT INTO results (response_id, body) VALUES (?, ?)", result.responseId, fitRow(result));
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
