import { SessionSourceRequestSchema } from "@edge-web/shared";
import { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import * as v from "valibot";
import type { AppEnv } from "../app-env.ts";
import { readJsonBody } from "../http/read-json-body.ts";
import { jsonError } from "../http/respond.ts";
import { statusFor } from "../http/status-for.ts";
import { openSession } from "../http/session-access.ts";
import { SESSION_ERRORS, type ApiRoute } from "./api-route.ts";

/** KV key of a session's source mapping. */
export const sessionSourceKey = (id: string) => `session-source:${id}`;

/**
 * Records which source a session came from. The protocol makes this best-effort (204 even when the
 * write fails) and deliberately answers bad input with plain text rather than the JSON error shape;
 * the session itself is checked as every session route checks it (404, 403 in their JSON shape).
 */
export const SESSION_SOURCE_ROUTE = {
  method: "post",
  path: "/api/session-source",
  tag: "sessions",
  summary: "Record which source a session came from (best effort)",
  description: "The caller must be allowed to use the session (as on every session route); bad bodies are answered in plain text.",
  body: { schema: SessionSourceRequestSchema },
  ok: { status: 204, description: "Recorded, or the write failed quietly." },
  errors: SESSION_ERRORS,
  otherResponses: {
    "400": { description: "Plain text: the body is not JSON with string id and source.", type: "text/plain" },
    "413": { description: "Plain text: the body is over 1 MiB.", type: "text/plain" },
    "415": { description: "Plain text: the body is not sent with Content-Type: application/json.", type: "text/plain" },
  },
} as const satisfies ApiRoute;

export const sessionSourceRoute = new Hono<AppEnv>().on(SESSION_SOURCE_ROUTE.method, SESSION_SOURCE_ROUTE.path, async (c) => {
  const body = await readJsonBody(c, "INVALID_JSON");
  if (!body.ok) {
    const message = body.error.code === "INVALID_JSON" ? 'body must be JSON: {"id": string, "source": string}' : body.error.message;
    return c.text(message, statusFor(body.error) as ContentfulStatusCode);
  }
  if (!v.is(SESSION_SOURCE_ROUTE.body.schema, body.value)) return c.text("id and source must be strings", 400);
  const { id, source } = body.value;
  const session = await openSession(c, id, { active: false });
  if (!session.ok) return jsonError(c, session.error);
  try {
    await c.env.CACHE.put(sessionSourceKey(id), source);
  } catch (err) {
    console.warn("session-source not recorded", err instanceof Error ? err.message : String(err));
  }
  return c.body(null, 204);
});
