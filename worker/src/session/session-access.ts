import { fail, ok, type Result } from "@edge-web/shared";
import type { Context } from "hono";
import type { AppEnv } from "../app-env.ts";
import type { SessionRecord } from "./session-record.ts";
import { sessionStub } from "./session-stub.ts";

/**
 * The session named in the route, if it exists and the caller may use it: 404 SESSION_NOT_FOUND,
 * 403 FORBIDDEN, or (with `active`) 409 SESSION_ENDED.
 */
export async function openSession(c: Context<AppEnv>, sessionId: string, want: { active: boolean }) {
  const stub = sessionStub(c.env, sessionId);
  const notFound = fail("SESSION_NOT_FOUND", `Session "${sessionId}" not found; create one with POST /api/sessions.`);
  if (!stub) return notFound;
  const record = (await stub.describe()) as SessionRecord | undefined;
  if (!record) return notFound;
  if (!(await c.var.options.authorizeSession(c.var.principal, record))) {
    return fail("FORBIDDEN", "This session belongs to another API token.");
  }
  if (want.active && record.status === "ended") {
    return fail("SESSION_ENDED", `Session "${sessionId}" has ended (${record.endedReason ?? "deleted"}); create a new one.`);
  }
  const opened: Result<{ stub: typeof stub; record: SessionRecord }> = ok({ stub, record });
  return opened;
}
