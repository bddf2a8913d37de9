export interface AttachmentList {
  add(id: string): void;
  has(id: string): boolean;
  ids(): string[];
}

/** The ids of a session's uploaded attachments, so that deleting the session deletes their bytes too. */
export function createAttachmentList(sql: SqlStorage): AttachmentList {
  sql.exec("CREATE TABLE IF NOT EXISTS attachments (id TEXT PRIMARY KEY)");
  return {
    add(id) {
      sql.exec("INSERT OR IGNORE INTO attachments (id) VALUES (?)", id);
    },
    has(id) {
      return sql.exec("SELECT 1 FROM attachments WHERE id = ?", id).toArray().length > 0;
    },
    ids() {
      return sql.exec<{ id: string }>("SELECT id FROM attachments").toArray().map((row) => row.id);
    },
  };
}
