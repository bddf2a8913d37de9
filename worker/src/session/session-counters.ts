export interface SessionCounters {
  add(name: string, by?: number): void;
  all(): Record<string, number>;
}

/** Named counters of a session (searches, cache hits, errors by code…) in its SQLite storage. */
export function createSessionCounters(sql: SqlStorage): SessionCounters {
  sql.exec("CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL)");
  return {
    add(name, by = 1) {
      sql.exec("INSERT INTO counters (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = value + excluded.value", name, by);
    },
    all() {
      const rows = sql.exec<{ name: string; value: number }>("SELECT name, value FROM counters").toArray();
      return Object.fromEntries(rows.map((r) => [r.name, r.value]));
    },
  };
}
