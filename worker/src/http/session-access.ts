import { deepFreeze, fail, ok, type Result } from "@edge-web/shared";
import type { Context } from "hono";
import type { AppEnv } from "../app-env.ts";
import type { SessionRecord } from "../session/session-record.ts";
import { sessionStub } from "../session/session-stub.ts";
import { setBounded } from "../set-bounded.ts";

/** Sessions this isolate has seen (frozen). What authorisation reads (owner, source) never changes after creation. */
const seen = new Map<string, SessionRecord>();
const SEEN_CAPACITY = 10_000;

function remember(record: SessionRecord): void {
  setBounded(seen, record.sessionId.toLowerCase(), deepFreeze(record) as SessionRecord, SEEN_CAPACITY);
}

/** A deleted session is forgotten here; isolates that still remember it are answered 404 by its object. */
export function forgetSession(sessionId: string): void {
  seen.delete(sessionId.toLowerCase());
}

/** A session object's stub, as the routes hold it. */
export type SessionStub = ReturnType<typeof sessionStub> & object;

/**
 * The session named in the route, if it exists and the caller may use it: 404 SESSION_NOT_FOUND,
 * 403 FORBIDDEN, or (with `active`) 409 SESSION_ENDED. Without `active` the record may come from
 * this isolate's memory (its status may be stale): callers whose session object checks existence
 * and status itself (tools, streams, reads, delete) save a round trip.
 */
export async function openSession(c: Context<AppEnv>, sessionId: string, want: { active: boolean }) {
  const stub = sessionStub(c.env, sessionId);
  const notFound = fail("SESSION_NOT_FOUND", `Session "${sessionId}" not found; create one with POST /api/sessions.`);
  if (!stub) return notFound;
  const id = sessionId.toLowerCase();
  let record = want.active ? undefined : seen.get(id);
  if (!record) {
    record = (await stub.describe()) as SessionRecord | undefined;
    if (!record) return notFound;
    remember(record);
  }
  if (!(await c.var.options.authorizeSession(c.var.principal, record))) {
    return fail("FORBIDDEN", "This session belongs to another API token.");
  }
  if (want.active && record.status === "ended") {
    return fail("SESSION_ENDED", `Session "${sessionId}" has ended (${record.endedReason ?? "deleted"}); create a new one.`);
  }
  const opened: Result<{ stub: typeof stub; record: SessionRecord }> = ok({ stub, record });
  return opened;
}
