import { createJsonRow, type JsonRow } from "./json-row.ts";

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

export type SessionRecordStore = JsonRow<SessionRecord>;

/** The session's own description, one row in its Durable Object's SQLite storage. */
export function createSessionRecordStore(sql: SqlStorage): SessionRecordStore {
  return createJsonRow<SessionRecord>(sql, "session", "id");
}
