import { Hono, type Context } from "hono";
import { CreateSessionRequestSchema, CreateSessionResponseSchema, OkResponseSchema } from "@edge-web/shared";
import type { AppEnv } from "../app-env.ts";
import { ownerId } from "../auth/principal.ts";
import { jsonError, jsonOk } from "../http/respond.ts";
import { readJsonBody } from "../http/read-json-body.ts";
import { validate } from "../http/validate.ts";
import { forgetSession, openSession } from "../http/session-access.ts";
import { sessionSourceKey } from "./session-source-route.ts";
import { sessionStub } from "../session/session-stub.ts";
import { BODY_ERRORS, SESSION_ERRORS, type ApiRoute } from "./api-route.ts";

/**
 * The session `resumeId` names when it is the caller's own (the same owner, not merely one the caller
 * may use, as the admin may use any) and still active; else undefined, and the caller gets a new one.
 */
async function ownActiveSession(c: Context<AppEnv>, resumeId: string): Promise<string | undefined> {
  const session = await openSession(c, resumeId, { active: true });
  return session.ok && session.value.record.owner === ownerId(c.var.principal) ? session.value.record.sessionId : undefined;
}

const CREATE_SESSION = {
  method: "post",
  path: "/api/sessions",
  tag: "sessions",
  summary: "Create a session",
  body: { schema: CreateSessionRequestSchema },
  ok: { status: 201, description: "The session was created.", schema: CreateSessionResponseSchema },
  errors: BODY_ERRORS,
} as const satisfies ApiRoute;

const DELETE_SESSION = {
  method: "delete",
  path: "/api/sessions/:id",
  tag: "sessions",
  summary: "Delete a session",
  description: "Stops everything running, closes its streams and deletes its results, history, frames and attachments.",
  ok: { status: 200, description: "Deleted.", schema: OkResponseSchema },
  errors: SESSION_ERRORS,
} as const satisfies ApiRoute;

export const SESSION_ROUTES: ApiRoute[] = [CREATE_SESSION, DELETE_SESSION];

export const sessionRoutes = new Hono<AppEnv>()
  .on(CREATE_SESSION.method, CREATE_SESSION.path, async (c) => {
    const body = await readJsonBody(c, "INVALID_JSON");
    if (!body.ok) return jsonError(c, body.error);
    const input = validate(CREATE_SESSION.body.schema, body.value, "VALIDATION_FAILED");
    if (!input.ok) return jsonError(c, input.error);
    const { source, cwd, model, resumeId } = input.value;
    const resumed = resumeId === undefined ? undefined : await ownActiveSession(c, resumeId);
    if (resumed) return jsonOk(c, { sessionId: resumed }, 201);
    const sessionId = crypto.randomUUID();
    await sessionStub(c.env, sessionId)!.create({
      sessionId,
      owner: ownerId(c.var.principal),
      source,
      ...(cwd !== undefined && { cwd }),
      ...(model !== undefined && { model }),
    });
    return jsonOk(c, { sessionId }, 201);
  })
  .on(DELETE_SESSION.method, DELETE_SESSION.path, async (c) => {
    const session = await openSession(c, c.req.param("id"), { active: false });
    if (!session.ok) return jsonError(c, session.error);
    const id = c.req.param("id");
    const deleted = await session.value.stub.delete();
    forgetSession(id);
    if (!deleted.ok) return jsonError(c, deleted.error);
    // The reference's app layer drops the session's source mapping too (best effort).
    await c.env.CACHE.delete(sessionSourceKey(id)).catch(() => {});
    return jsonOk(c, deleted.value);
  });
