import { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppEnv } from "../app-env.ts";
import { readJsonBody } from "../http/read-json-body.ts";
import { jsonError } from "../http/respond.ts";
import { statusFor } from "../http/status-for.ts";
import { openSession } from "../http/session-access.ts";

/** KV key of a session's source mapping. */
export const sessionSourceKey = (id: string) => `session-source:${id}`;

/**
 * Records which source a session came from. The protocol makes this best-effort (204 even when the
 * write fails) and deliberately answers bad input with plain text rather than the JSON error shape;
 * the session itself is checked as every session route checks it (404, 403 in their JSON shape).
 */
export const sessionSourceRoute = new Hono<AppEnv>().post("/api/session-source", async (c) => {
  const body = await readJsonBody(c, "INVALID_JSON");
  if (!body.ok) {
    const message = body.error.code === "INVALID_JSON" ? 'body must be JSON: {"id": string, "source": string}' : body.error.message;
    return c.text(message, statusFor(body.error) as ContentfulStatusCode);
  }
  const { id, source } = (typeof body.value === "object" && body.value !== null ? body.value : {}) as Record<string, unknown>;
  if (typeof id !== "string" || typeof source !== "string") return c.text("id and source must be strings", 400);
  const session = await openSession(c, id, { active: false });
  if (!session.ok) return jsonError(c, session.error);
  try {
    await c.env.CACHE.put(sessionSourceKey(id), source);
  } catch (err) {
    console.warn("session-source not recorded", err instanceof Error ? err.message : String(err));
  }
  return c.body(null, 204);
});
