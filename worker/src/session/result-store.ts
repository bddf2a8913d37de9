import type { StoredResult } from "@edge-web/shared";
import type { ResultStore } from "../tools/tool.ts";
import { fitRow } from "./fit-row.ts";
import { insertRows } from "./insert-rows.ts";

/** A stored result as pickers show it. */
export interface ResultSummary {
  responseId: string;
  kind: "search" | "fetch";
  label: string;
}

export interface SessionResultStore extends ResultStore {
  /** The stored results, newest first, as pickers show them. */
  summaries(): ResultSummary[];
  /** Whether results were saved since the last flush. */
  unwritten(): boolean;
  /** Writes the results saved since the last flush; whether there were any. */
  flush(): boolean;
  clear(): void;
}

interface PendingResult {
  body: string;
  label: string;
  kind: StoredResult["kind"];
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
  /** Saved since the last flush, in order; reads see them. A save costs no storage statement until the flush. */
  const pending = new Map<string, PendingResult>();
  let keep = Infinity;
  /** How many of the stored rows, newest first, are kept with the pending ones: what the next flush leaves of them. */
  const storedKept = () => Math.max(0, Math.min(keep, Number.MAX_SAFE_INTEGER) - pending.size);
  return {
    save(result, maxStored) {
      pending.set(result.responseId, { body: fitRow(result), label: labelOf(result).slice(0, 200), kind: result.kind });
      keep = maxStored;
      // Reads never see more than the cap, however long the flush that trims storage is in coming.
      for (const responseId of pending.keys()) {
        if (pending.size <= keep) break;
        pending.delete(responseId);
      }
    },
    get(responseId) {
      const body =
        pending.get(responseId)?.body ??
        sql.exec<{ body: string }>("SELECT body FROM results WHERE response_id = ? AND seq > (SELECT MAX(seq) FROM results) - ?", responseId, storedKept()).toArray()[0]?.body;
      return body === undefined ? undefined : (JSON.parse(body) as StoredResult);
    },
    summaries() {
      const stored = sql
        .exec<{ response_id: string; label: string | null; kind: string | null }>("SELECT response_id, label, kind FROM results ORDER BY seq DESC LIMIT ?", storedKept())
        .toArray()
        .map((row): ResultSummary => ({ responseId: row.response_id, label: row.label ?? row.response_id, kind: row.kind === "search" ? "search" : "fetch" }));
      const fresh = [...pending].reverse().map(([responseId, row]): ResultSummary => ({ responseId, label: row.label, kind: row.kind }));
      return [...fresh, ...stored];
    },
    unwritten: () => pending.size > 0,
    flush() {
      if (pending.size === 0) return false;
      insertRows(sql, "results (response_id, body, label, kind)", [...pending].map(([responseId, row]) => [responseId, row.body, row.label, row.kind]));
      pending.clear();
      // seq only grows, so the newest `keep` are those within `keep` of the largest (an index lookup).
      sql.exec("DELETE FROM results WHERE seq <= (SELECT MAX(seq) FROM results) - ?", keep);
      return true;
    },
    clear() {
      pending.clear();
      sql.exec("DELETE FROM results");
    },
  };
}
