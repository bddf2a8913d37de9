import { Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { MAX_JSON_BODY_BYTES } from "../http/read-json-body.ts";

/** KV key of a session's source mapping. */
export const sessionSourceKey = (id: string) => `session-source:${id}`;

/**
 * Records which source a session came from. The protocol makes this best-effort (204 even when the
 * write fails) and deliberately answers bad input with plain text rather than the JSON error shape.
 */
export const sessionSourceRoute = new Hono<AppEnv>().post("/api/session-source", async (c) => {
  if (Number(c.req.header("content-length") ?? 0) > MAX_JSON_BODY_BYTES) {
    return c.text(`body must be at most ${MAX_JSON_BODY_BYTES} bytes`, 413);
  }
  let body: unknown;
  try {
    body = JSON.parse(await c.req.text());
  } catch {
    return c.text('body must be JSON: {"id": string, "source": string}', 400);
  }
  const { id, source } = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  if (typeof id !== "string" || typeof source !== "string") return c.text("id and source must be strings", 400);
  try {
    await c.env.CACHE.put(sessionSourceKey(id), source);
  } catch (err) {
    console.warn("session-source not recorded", err instanceof Error ? err.message : String(err));
  }
  return c.body(null, 204);
});
