import type { StoredResult } from "@edge-web/shared";
import type { ResultSummary } from "../agent/completion.ts";
import type { ResultStore } from "../tools/tool.ts";
import { fitRow } from "./fit-row.ts";

export interface SessionResultStore extends ResultStore {
  /** The stored results, newest first, as pickers show them. */
  summaries(): ResultSummary[];
  clear(): void;
}

/** What a picker calls a stored result: its first page's title or URL, or its first query. */
function labelOf(result: StoredResult): string {
  if (result.kind === "fetch") return result.results[0]?.title || result.results[0]?.url || result.responseId;
  return result.queries.map((q) => q.query).join(", ") || result.responseId;
}

/** Stored results in the session Durable Object's SQLite storage; no row outgrows what a row may hold. */
export function createResultStore(sql: SqlStorage): SessionResultStore {
  sql.exec(`CREATE TABLE IF NOT EXISTS results (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    response_id TEXT NOT NULL UNIQUE,
    body TEXT NOT NULL,
    label TEXT,
    kind TEXT
  )`);
  // Tables stored before results had a label and a kind gain them.
  const columns = sql.exec<{ name: string }>("PRAGMA table_info(results)").toArray().map((c) => c.name);
  if (!columns.includes("label")) sql.exec("ALTER TABLE results ADD COLUMN label TEXT");
  if (!columns.includes("kind")) sql.exec("ALTER TABLE results ADD COLUMN kind TEXT");
  return {
    save(result, maxStored) {
      sql.exec("INSERT INTO results (response_id, body, label, kind) VALUES (?, ?, ?, ?)", result.responseId, fitRow(result), labelOf(result).slice(0, 200), result.kind);
      // seq only grows, so the newest `maxStored` are those within `maxStored` of the largest (an index lookup).
      sql.exec("DELETE FROM results WHERE seq <= (SELECT MAX(seq) FROM results) - ?", maxStored);
    },
    get(responseId) {
      const row = sql.exec<{ body: string }>("SELECT body FROM results WHERE response_id = ?", responseId).toArray()[0];
      return row ? (JSON.parse(row.body) as StoredResult) : undefined;
    },
    summaries() {
      return sql
        .exec<{ response_id: string; label: string | null; kind: string | null }>("SELECT response_id, label, kind FROM results ORDER BY seq DESC")
        .toArray()
        .map((row) => ({ responseId: row.response_id, label: row.label ?? row.response_id, kind: row.kind === "search" ? "search" : "fetch" }));
    },
    clear() {
      sql.exec("DELETE FROM results");
    },
  };
}
