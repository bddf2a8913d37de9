import { fail, keyed, ok, type Result } from "@edge-web/shared";
import { Hono, type Context } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../app-env.ts";
import { jsonError, jsonOk } from "../http/respond.ts";
import { openSession, type SessionStub } from "../http/session-access.ts";
import { LISTED_COMMANDS } from "../agent/commands/listed-commands.ts";
import { loadSettings } from "../config/load-settings.ts";
import { attachmentIdOf } from "../agent/context/to-model-messages.ts";
import { toPiMessages } from "../agent/context/to-pi-messages.ts";
import { attachmentDisplayUrl } from "../attachments/sign-attachment-url.ts";
import { validate } from "../http/validate.ts";
import type { SessionMessage } from "@edge-web/shared";

/** GET …/messages?format=: pi's messages (the default, what pi-web's client reads) or AI SDK UIMessages. */
const MessagesQuerySchema = v.object({ format: v.optional(v.picklist(["pi", "ui"], 'format must be "pi" (the default) or "ui"'), "pi") });

/** File parts point at the session's attachments; a reader gets fresh signed URLs for them, by attachment id (none without a secret). */
async function displayUrls(messages: SessionMessage[], secret: string | undefined, basePath: string): Promise<Map<string, string>> {
  if (!secret) return new Map();
  const ids = new Set(messages.flatMap((message) => message.parts.map(attachmentIdOf).filter((id) => id !== undefined)));
  return new Map(await Promise.all([...ids].map(async (id) => [id, await attachmentDisplayUrl(basePath, secret, id)] as const)));
}

/** UIMessages whose file parts point at their signed URLs. */
function withDisplayUrls(messages: SessionMessage[], urls: ReadonlyMap<string, string>): SessionMessage[] {
  return messages.map((message) => ({
    ...message,
    parts: message.parts.map((part) => {
      const url = urls.get(attachmentIdOf(part) ?? "");
      return url ? { ...part, url } : part;
    }),
  }));
}

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

/** The plain reads: each answers one object from the session (ended sessions included, deleted ones 404). */
const READS: Record<string, (stub: SessionStub, c: Context<AppEnv>) => Promise<Result<object>>> = {
  state: async (stub, c) => {
    // The model a turn would use depends on the settings; without valid settings the state still answers.
    const settings = await loadSettings(c.env);
    return keyed("state", await stub.state(settings.ok ? settings.value : undefined));
  },
  stats: async (stub) => keyed("stats", await stub.stats()),
  messages: async (stub, c) => {
    const query = validate(MessagesQuerySchema, { format: c.req.query("format") }, "VALIDATION_FAILED");
    if (!query.ok) return query;
    const history = (await stub.history()) as Result<SessionMessage[]>;
    if (!history.ok) return history;
    const urls = await displayUrls(history.value, c.env.ATTACHMENT_SECRET, c.var.options.basePath);
    return ok({ messages: query.value.format === "ui" ? withDisplayUrls(history.value, urls) : toPiMessages(history.value, urls) });
  },
  commands: async (stub) => keyed("commands", (await stub.describe()) ? ok(LISTED_COMMANDS) : fail("SESSION_NOT_FOUND", "Session not found; create one with POST /api/sessions.")),
};

for (const [name, read] of Object.entries(READS)) {
  sessionReadRoutes.get(`/:id/${name}`, async (c) => {
    const session = await openSession(c, c.req.param("id"), { active: false });
    if (!session.ok) return jsonError(c, session.error);
    const answer = await read(session.value.stub, c);
    return answer.ok ? jsonOk(c, answer.value) : jsonError(c, answer.error);
  });
}
