import { fail, ok, type Result } from "@edge-web/shared";
import { toJsonSchema } from "@valibot/to-json-schema";
import { Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { jsonError, jsonOk } from "../http/respond.ts";
import { openSession } from "../session/session-access.ts";
import { TOOLS } from "../tools/tool-registry.ts";

/** The session's tools as commands, with JSON Schemas of their inputs (computed once). */
const COMMANDS = Object.values(TOOLS).map((tool) => ({
  name: tool.name,
  description: tool.description,
  inputSchema: toJsonSchema(tool.params, { errorMode: "ignore" }),
}));

/** GET /api/sessions/:id/stream and the reads below. */
export const sessionReadRoutes = new Hono<AppEnv>()
  .get("/:id/stream", async (c) => {
    // The session object answers 409 for ended sessions itself.
    const session = await openSession(c, c.req.param("id"), { active: false });
    if (!session.ok) return jsonError(c, session.error);
    // EventSource sends Last-Event-ID as a header; a query parameter serves clients that cannot.
    const lastEventId = c.req.header("last-event-id") ?? c.req.query("lastEventId");
    const headers: Record<string, string> = { "x-heartbeat-ms": String(c.var.options.sse.heartbeatMs) };
    if (lastEventId !== undefined) headers["last-event-id"] = lastEventId;
    const response = await session.value.stub.fetch("https://session/stream", { headers });
    if (!response.ok) {
      const error = (await response.json()) as { code: "SESSION_ENDED" | "SESSION_NOT_FOUND"; message: string };
      return jsonError(c, error);
    }
    return new Response(response.body, response);
  });

type SessionStub = Extract<Awaited<ReturnType<typeof openSession>>, { ok: true }>["value"]["stub"];

/** The plain reads: each answers one object from the session (ended sessions included, deleted ones 404). */
const READS: Record<string, (stub: SessionStub) => Promise<Result<object>>> = {
  state: async (stub) => wrap("state", await stub.state()),
  stats: async (stub) => wrap("stats", await stub.stats()),
  messages: async (stub) => wrap("messages", await stub.history()),
  commands: async (stub) => wrap("commands", (await stub.describe()) ? ok(COMMANDS) : fail("SESSION_NOT_FOUND", "Session not found; create one with POST /api/sessions.")),
};

function wrap(key: string, read: Result<unknown>): Result<object> {
  return read.ok ? ok({ [key]: read.value }) : read;
}

for (const [name, read] of Object.entries(READS)) {
  sessionReadRoutes.get(`/:id/${name}`, async (c) => {
    const session = await openSession(c, c.req.param("id"), { active: false });
    if (!session.ok) return jsonError(c, session.error);
    const answer = await read(session.value.stub);
    return answer.ok ? jsonOk(c, answer.value) : jsonError(c, answer.error);
  });
}
