/** One JSON value kept as the single row of its own table in a session's SQLite storage. */
export interface JsonRow<T> {
  read(): T | undefined;
  write(value: T): void;
}

/** Creates the table on first use; `key` names its one-row key column (tables already stored keep theirs). */
export function createJsonRow<T>(sql: SqlStorage, table: string, key = "k"): JsonRow<T> {
  sql.exec(`CREATE TABLE IF NOT EXISTS ${table} (${key} INTEGER PRIMARY KEY CHECK (${key} = 1), body TEXT NOT NULL)`);
  return {
    read() {
      const row = sql.exec<{ body: string }>(`SELECT body FROM ${table} WHERE ${key} = 1`).toArray()[0];
      return row ? (JSON.parse(row.body) as T) : undefined;
    },
    write(value) {
      sql.exec(`INSERT OR REPLACE INTO ${table} (${key}, body) VALUES (1, ?)`, JSON.stringify(value));
    },
  };
}
