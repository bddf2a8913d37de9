/** What the log reads of a compaction it keeps (the rest is kept as given, as JSON). */
export interface CompactionRow {
  id: string;
  /** The first message the compaction kept: a fork that cuts it away drops the compaction. */
  firstKeptMessageId: string;
}

export interface CompactionLog<Entry extends CompactionRow> {
  add(entry: Entry): void;
  /** The compaction the model's context follows (the newest), if any. */
  latest(): Entry | undefined;
  list(): Entry[];
  /** Drops the compactions whose first kept message is gone (a fork cut it away): the one before applies again. */
  retain(messageIds: ReadonlySet<string>): void;
}

/** A session's compactions in its SQLite storage, oldest first; each written at once (it changes what the model sees). */
export function createCompactionLog<Entry extends CompactionRow>(sql: SqlStorage): CompactionLog<Entry> {
  sql.exec("CREATE TABLE IF NOT EXISTS compactions (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, first_kept TEXT NOT NULL, body TEXT NOT NULL)");
  return {
    add(entry) {
      sql.exec("INSERT INTO compactions (id, first_kept, body) VALUES (?, ?, ?)", entry.id, entry.firstKeptMessageId, JSON.stringify(entry));
    },
    latest() {
      const row = sql.exec<{ body: string }>("SELECT body FROM compactions ORDER BY seq DESC LIMIT 1").toArray()[0];
      return row && (JSON.parse(row.body) as Entry);
    },
    list() {
      return sql.exec<{ body: string }>("SELECT body FROM compactions ORDER BY seq").toArray().map((row) => JSON.parse(row.body) as Entry);
    },
    retain(messageIds) {
      for (const row of sql.exec<{ id: string; first_kept: string }>("SELECT id, first_kept FROM compactions").toArray()) {
        if (!messageIds.has(row.first_kept)) sql.exec("DELETE FROM compactions WHERE id = ?", row.id);
      }
    },
  };
}
