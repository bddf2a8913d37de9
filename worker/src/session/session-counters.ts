import { insertRows } from "./insert-rows.ts";

export interface SessionCounters {
  add(name: string, by?: number): void;
  all(): Record<string, number>;
  /** Writes what was added since the last flush; whether there was any. */
  flush(): boolean;
}

/**
 * Named counters of a session (searches, cache hits, errors by code…) in its SQLite storage. Adds
 * are summed in memory until the session flushes (once per call); reads see them.
 */
export function createSessionCounters(sql: SqlStorage): SessionCounters {
  sql.exec("CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL)");
  const pending = new Map<string, number>();
  return {
    add(name, by = 1) {
      pending.set(name, (pending.get(name) ?? 0) + by);
    },
    all() {
      const rows = sql.exec<{ name: string; value: number }>("SELECT name, value FROM counters").toArray();
      const totals = Object.fromEntries(rows.map((r) => [r.name, r.value]));
      for (const [name, by] of pending) totals[name] = (totals[name] ?? 0) + by;
      return totals;
    },
    flush() {
      if (pending.size === 0) return false;
      insertRows(sql, "counters (name, value)", [...pending], "ON CONFLICT(name) DO UPDATE SET value = value + excluded.value");
      pending.clear();
      return true;
    },
  };
}
