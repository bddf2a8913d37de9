export interface SessionRecord {
  sessionId: string;
  /** Owner id of the principal that created it ("open" without auth). */
  owner: string;
  source: string;
  cwd?: string;
  model?: string;
  createdAt: number;
  status: "active" | "ended";
  endedReason?: string;
}

export interface SessionRecordStore {
  read(): SessionRecord | undefined;
  write(record: SessionRecord): void;
}

/** The session's own description, one row in its Durable Object's SQLite storage. */
export function createSessionRecordStore(sql: SqlStorage): SessionRecordStore {
  sql.exec("CREATE TABLE IF NOT EXISTS session (id INTEGER PRIMARY KEY CHECK (id = 1), body TEXT NOT NULL)");
  return {
    read() {
      const row = sql.exec<{ body: string }>("SELECT body FROM session WHERE id = 1").toArray()[0];
      return row ? (JSON.parse(row.body) as SessionRecord) : undefined;
    },
    write(record) {
      sql.exec("INSERT OR REPLACE INTO session (id, body) VALUES (1, ?)", JSON.stringify(record));
    },
  };
}
