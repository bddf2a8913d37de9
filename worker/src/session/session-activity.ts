export interface SessionActivity {
  mark(): void;
  /** When the session was last used (ms since the epoch); 0 if never. */
  last(): number;
}

/** The time of the session's last activity, written with the call's other changes (no extra flush). */
export function createSessionActivity(sql: SqlStorage): SessionActivity {
  sql.exec("CREATE TABLE IF NOT EXISTS activity (k INTEGER PRIMARY KEY CHECK (k = 1), at INTEGER NOT NULL)");
  return {
    mark() {
      sql.exec("INSERT OR REPLACE INTO activity (k, at) VALUES (1, ?)", Date.now());
    },
    last() {
      return sql.exec<{ at: number }>("SELECT at FROM activity WHERE k = 1").toArray()[0]?.at ?? 0;
    },
  };
}
