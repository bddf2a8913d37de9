import {
  CompactRequestSchema,
  CompactResponseSchema,
  CompletionResponseSchema,
  CompletionTriggersSchema,
  described,
  fail,
  ForkMessagesSchema,
  ForkRequestSchema,
  ForkResponseSchema,
  keyed,
  OkResponseSchema,
  PromptRequestSchema,
  SessionModelsSchema,
  SetModelRequestSchema,
  SetThinkingRequestSchema,
  SteerRequestSchema,
  UiResponseRequestSchema,
  UiRpcRequestSchema,
  type ErrorCode,
  type Result,
} from "@edge-web/shared";
import { Hono, type Context } from "hono";
import * as v from "valibot";
import { currentCatalog } from "../agent/model/model-catalog.ts";
import type { AppEnv } from "../app-env.ts";
import { loadSettings } from "../config/load-settings.ts";
import type { Settings } from "../config/resolve-settings.ts";
import { jsonError, jsonOk } from "../http/respond.ts";
import { readJsonBody } from "../http/read-json-body.ts";
import { sendSettings } from "../http/send-settings.ts";
import type { NeedSettings } from "../session/need-settings.ts";
import { validate } from "../http/validate.ts";
import { openSession, type SessionStub } from "../http/session-access.ts";
import { BODY_ERRORS, READ_ERRORS, SESSION_ERRORS, type ApiRoute, type ApiRouteWithBody } from "./api-route.ts";
import { readRoute } from "./session-read-routes.ts";

type Ctx = Context<AppEnv>;

/** The session (its object checks existence and status itself, so a record this isolate has seen is enough). */
const sessionOf = (c: Ctx) => openSession(c, c.req.param("id") ?? "", { active: false });

async function body<S extends v.GenericSchema>(c: Ctx, schema: S): Promise<Result<v.InferOutput<S>>> {
  const read = await readJsonBody(c, "INVALID_JSON");
  return read.ok ? validate(schema, read.value, "VALIDATION_FAILED") : read;
}

type Opened = { stub: SessionStub; sessionId: string };

/**
 * A route that first opens its session — 404 or 403 before anything of the request is read,
 * validated or looked up — then answers what `run` gives.
 */
function inSession(run: (c: Ctx, session: Opened) => Promise<Result<object> | Response>) {
  return async (c: Ctx) => {
    const session = await sessionOf(c);
    if (!session.ok) return jsonError(c, session.error);
    const result = await run(c, { stub: session.value.stub, sessionId: session.value.record.sessionId });
    if (result instanceof Response) return result;
    return result.ok ? jsonOk(c, result.value) : jsonError(c, result.error);
  };
}

/** A request's body and the settings its turn runs with (by id when the object holds them), then the session object. */
function withSettings<S extends v.GenericSchema>(
  route: ApiRouteWithBody<S>,
  run: (stub: SessionStub, input: v.InferOutput<S>, settings: Settings | string) => Promise<Result<object> | NeedSettings>,
) {
  return inSession(async (c, { stub, sessionId }) => {
    const input = await body(c, route.body.schema);
    if (!input.ok) return input;
    const settings = await loadSettings(c.env);
    if (!settings.ok) return settings;
    return sendSettings(sessionId, settings.value, (held) => run(stub, input.value, held)) as Promise<Result<object>>;
  });
}

function withBody<S extends v.GenericSchema>(route: ApiRouteWithBody<S>, run: (stub: SessionStub, input: v.InferOutput<S>) => Promise<Result<object>>) {
  return inSession(async (c, { stub }) => {
    const input = await body(c, route.body.schema);
    return input.ok ? run(stub, input.value) : input;
  });
}

/** A POST to a session's agent: its body validated with `schema`, answered `ok`. */
function agentRoute<S extends v.GenericSchema>(
  path: string,
  summary: string,
  schema: S,
  errors: readonly ErrorCode[] = [],
  ok: ApiRoute["ok"] = { status: 200, description: "Accepted.", schema: OkResponseSchema },
): ApiRouteWithBody<S> {
  return { method: "post", path: `/api/sessions/:id/${path}`, tag: "agent", summary, body: { schema }, ok, errors: [...SESSION_ERRORS, "SESSION_ENDED", ...BODY_ERRORS, ...errors] };
}

const MESSAGES = agentRoute("messages", "Send a message (starts a turn, or steers or follows one)", PromptRequestSchema, ["SESSION_BUSY", "MODEL_NOT_CONFIGURED", "ATTACHMENT_NOT_FOUND"]);
const STEER = agentRoute("steer", "Steer the running turn", SteerRequestSchema, ["MODEL_NOT_CONFIGURED"]);
const FOLLOW_UP = agentRoute("follow_up", "Queue a message for after the running turn", SteerRequestSchema, ["MODEL_NOT_CONFIGURED"]);
const ABORT: ApiRoute = {
  method: "post",
  path: "/api/sessions/:id/abort",
  tag: "agent",
  summary: "Abort the running turn",
  ok: { status: 200, description: "Accepted.", schema: OkResponseSchema },
  errors: [...SESSION_ERRORS, "SESSION_ENDED", ...READ_ERRORS],
};
const MODEL = agentRoute("model", "Choose the model of the next turns", SetModelRequestSchema);
const THINKING = agentRoute("thinking", "Choose the thinking level of the next turns", SetThinkingRequestSchema);
const COMPACT = agentRoute("compact", "Summarise the older history for the model (the full history stays readable)", CompactRequestSchema, ["SESSION_BUSY", "MODEL_NOT_CONFIGURED"], {
  status: 200,
  description: "Compacted, or `compacted: false` with the reason (nothing to compact, aborted, the summary failed). 409 SESSION_BUSY while a turn runs.",
  schema: CompactResponseSchema,
});
const FORK = agentRoute("fork", "Cut the history back to before a user message", ForkRequestSchema, ["ENTRY_NOT_FOUND", "SESSION_BUSY"], {
  status: 200,
  description: "The history was cut.",
  schema: ForkResponseSchema,
});
const UI_RESPONSE = agentRoute("ui-response", "Answer a request for the user (an approval)", UiResponseRequestSchema, ["UNKNOWN_EXTENSION_UI"]);
const UI_RPC = agentRoute("ui-rpc", "Call a UI method; the answer arrives on the stream", UiRpcRequestSchema);
const MODELS = readRoute("models", "The models a turn may use, in pi's Model shape", SessionModelsSchema, { tag: "agent" });
const FORK_MESSAGES = readRoute("fork-messages", "The user messages a fork may start from", ForkMessagesSchema, { tag: "agent" });
const COMPLETION_TRIGGERS = readRoute("completion/triggers", "Completion triggers", CompletionTriggersSchema, { tag: "agent" });
const COMPLETION = readRoute("completion", "Completions for a trigger", CompletionResponseSchema, {
  tag: "agent",
  query: v.object({
    trigger: v.optional(described(v.string(), "A trigger from /completion/triggers; another, or none, has no items.")),
    q: v.optional(described(v.string(), "What was typed after the trigger.")),
    query: v.optional(described(v.string(), "The same as q (read when q is absent).")),
  }),
});

export const AGENT_ROUTES: ApiRoute[] = [MODELS, MESSAGES, STEER, FOLLOW_UP, ABORT, MODEL, THINKING, COMPACT, FORK, UI_RESPONSE, UI_RPC, FORK_MESSAGES, COMPLETION_TRIGGERS, COMPLETION];

/** The agent endpoints of a session: messages, steering, follow-ups, abort, model and thinking, compaction, fork, completion, UI requests. */
export const agentRoutes = new Hono<AppEnv>()
  .on(MESSAGES.method, MESSAGES.path, withSettings(MESSAGES, (stub, input, settings) => stub.prompt(input, settings)))
  .on(STEER.method, STEER.path, withSettings(STEER, (stub, input, settings) => stub.steer(input, settings)))
  .on(FOLLOW_UP.method, FOLLOW_UP.path, withSettings(FOLLOW_UP, (stub, input, settings) => stub.followUp(input, settings)))
  // Abort takes no body; one sent anyway meets the limit and the type rule of every other route.
  .on(
    ABORT.method,
    ABORT.path,
    inSession(async (c, { stub }) => {
      const read = await readJsonBody(c, "INVALID_JSON");
      return read.ok ? stub.abort() : read;
    }),
  )
  .on(
    MODEL.method,
    MODEL.path,
    inSession(async (c, { stub }) => {
      const input = await body(c, MODEL.body.schema);
      if (!input.ok) return input;
      const listed = await currentCatalog(c.env);
      if (!listed.ok) return listed;
      const { provider, modelId } = input.value;
      const catalog = listed.value;
      if (!catalog.providers.includes(provider)) {
        const known = catalog.providers.join(", ") || "none (configure auth.modelProviders)";
        return fail("VALIDATION_FAILED", `Unknown model provider "${provider}"; the providers are: ${known}.`, ["provider"]);
      }
      if (!catalog.models.some((m) => m.provider === provider && m.id === modelId)) {
        const known = catalog.models.filter((m) => m.provider === provider).map((m) => m.id).join(", ") || "none listed";
        return fail("VALIDATION_FAILED", `Unknown model "${modelId}" of ${provider}; its models are: ${known}.`, ["modelId"]);
      }
      return stub.setModel({ provider, modelId });
    }),
  )
  .on(THINKING.method, THINKING.path, withBody(THINKING, (stub, input) => stub.setThinking(input.level)))
  .on(FORK_MESSAGES.method, FORK_MESSAGES.path, inSession(async (_c, { stub }) => keyed("messages", await stub.forkMessages())))
  .on(COMPACT.method, COMPACT.path, withSettings(COMPACT, (stub, input, settings) => stub.compact(input.instructions, settings)))
  .on(FORK.method, FORK.path, withBody(FORK, (stub, input) => stub.fork(input.entryId)))
  .on(UI_RESPONSE.method, UI_RESPONSE.path, withBody(UI_RESPONSE, (stub, input) => stub.uiResponse(input)))
  .on(UI_RPC.method, UI_RPC.path, withBody(UI_RPC, (stub, input) => stub.uiRpc(input)))
  .on(COMPLETION_TRIGGERS.method, COMPLETION_TRIGGERS.path, inSession((_c, { stub }) => stub.completion(undefined, "")))
  // pi-web's client sends what was typed as q=; query= (our first name for it) is read too.
  .on(COMPLETION.method, COMPLETION.path, inSession((c, { stub }) => stub.completion(c.req.query("trigger") ?? "", c.req.query("q") ?? c.req.query("query") ?? "")))
  .on(MODELS.method, MODELS.path, inSession((c) => currentCatalog(c.env)));
