import { AgentMessageSchema, CommandSchema, described, fail, keyed, ok, SessionMessageSchema, SessionStateSchema, SessionStatsSchema, type Result } from "@edge-web/shared";
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
import { SESSION_ERRORS, type ApiRoute } from "./api-route.ts";

/** A GET of one object of a session, answered as `schema`. */
export const readRoute = (path: string, summary: string, schema: v.GenericSchema, extra: Partial<ApiRoute> = {}): ApiRoute => ({
  method: "get",
  path: `/api/sessions/:id/${path}`,
  tag: "reads",
  summary,
  ok: { status: 200, description: summary, schema },
  errors: SESSION_ERRORS,
  ...extra,
});

const keyedBy = (key: string, schema: v.GenericSchema) => v.object({ [key]: schema });

const STREAM_ROUTE = {
  method: "get",
  path: "/api/sessions/:id/stream",
  tag: "stream",
  summary: "Follow the session live",
  description:
    "Server-sent events: `event: uiMessageChunk` frames (AI SDK UI-message chunks of tool calls and turns) and `event: control` frames, each with a numbered `id:`. Send Last-Event-ID (or ?lastEventId=) to replay what came after it; 0 replays everything kept.",
  query: v.object({ lastEventId: v.optional(described(v.string(), "Replay the frames after this id (for clients that cannot send Last-Event-ID).")) }),
  headers: { "Last-Event-ID": "Replay the frames after this id." },
  ok: { status: 200, description: "An event stream; it stays open until the session ends or the client leaves.", type: "text/event-stream" },
  errors: [...SESSION_ERRORS, "SESSION_ENDED"],
} as const satisfies ApiRoute;

/** GET …/messages?format=: pi's messages (the default, what pi-web's client reads) or AI SDK UIMessages. */
const MessagesQuerySchema = v.object({
  format: v.optional(
    described(
      v.picklist(["pi", "ui"], 'format must be "pi" (the default) or "ui"'),
      "pi (the default): pi's messages (user, assistant with text, thinking and tool calls, toolResult, compactionSummary); ui: AI SDK UIMessages.",
    ),
    "pi",
  ),
});

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
  .on(STREAM_ROUTE.method, STREAM_ROUTE.path, async (c) => {
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

type Read = (stub: SessionStub, c: Context<AppEnv>) => Promise<Result<object>>;

/** The plain reads: each answers one object from the session (ended sessions included, deleted ones 404). */
const READS: [ApiRoute, Read][] = [
  [
    readRoute("state", "The session's state", keyedBy("state", SessionStateSchema)),
    async (stub, c) => {
      // The model a turn would use depends on the settings; without valid settings the state still answers.
      const settings = await loadSettings(c.env);
      return keyed("state", await stub.state(settings.ok ? settings.value : undefined));
    },
  ],
  [readRoute("stats", "What the session did: messages, tool calls, tokens, cost, fetches", keyedBy("stats", SessionStatsSchema)), async (stub) => keyed("stats", await stub.stats())],
  [
    readRoute("messages", "The session's history: pi's messages, or AI SDK UIMessages with ?format=ui", keyedBy("messages", v.union([v.array(AgentMessageSchema), v.array(SessionMessageSchema)])), {
      query: MessagesQuerySchema,
      errors: [...SESSION_ERRORS, "VALIDATION_FAILED"],
    }),
    async (stub, c) => {
      const query = validate(MessagesQuerySchema, { format: c.req.query("format") }, "VALIDATION_FAILED");
      if (!query.ok) return query;
      const history = (await stub.history()) as Result<SessionMessage[]>;
      if (!history.ok) return history;
      const urls = await displayUrls(history.value, c.env.ATTACHMENT_SECRET, c.var.options.basePath);
      return ok({ messages: query.value.format === "ui" ? withDisplayUrls(history.value, urls) : toPiMessages(history.value, urls) });
    },
  ],
  [
    readRoute("commands", "The slash commands a message may be (pi's command shape)", keyedBy("commands", v.array(CommandSchema))),
    async (stub) => keyed("commands", (await stub.describe()) ? ok(LISTED_COMMANDS) : fail("SESSION_NOT_FOUND", "Session not found; create one with POST /api/sessions.")),
  ],
];

export const SESSION_READ_ROUTES: ApiRoute[] = [STREAM_ROUTE, ...READS.map(([route]) => route)];

for (const [route, read] of READS) {
  sessionReadRoutes.on(route.method, route.path, async (c) => {
    const session = await openSession(c, c.req.param("id") ?? "", { active: false });
    if (!session.ok) return jsonError(c, session.error);
    const answer = await read(session.value.stub, c);
    return answer.ok ? jsonOk(c, answer.value) : jsonError(c, answer.error);
  });
}
