import {
  CompactRequestSchema,
  fail,
  ForkRequestSchema,
  keyed,
  PromptRequestSchema,
  SetModelRequestSchema,
  SetThinkingRequestSchema,
  SteerRequestSchema,
  UiResponseRequestSchema,
  UiRpcRequestSchema,
  type Result,
} from "@edge-web/shared";
import { Hono, type Context } from "hono";
import type * as v from "valibot";
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
function withSettings<S extends v.GenericSchema>(schema: S, run: (stub: SessionStub, input: v.InferOutput<S>, settings: Settings | string) => Promise<Result<object> | NeedSettings>) {
  return inSession(async (c, { stub, sessionId }) => {
    const input = await body(c, schema);
    if (!input.ok) return input;
    const settings = await loadSettings(c.env);
    if (!settings.ok) return settings;
    return sendSettings(sessionId, settings.value, (held) => run(stub, input.value, held)) as Promise<Result<object>>;
  });
}

function withBody<S extends v.GenericSchema>(schema: S, run: (stub: SessionStub, input: v.InferOutput<S>) => Promise<Result<object>>) {
  return inSession(async (c, { stub }) => {
    const input = await body(c, schema);
    return input.ok ? run(stub, input.value) : input;
  });
}

/** The agent endpoints of a session: messages, steering, follow-ups, abort, model and thinking, compaction, fork, completion, UI requests. */
export const agentRoutes = new Hono<AppEnv>()
  .post("/:id/messages", withSettings(PromptRequestSchema, (stub, input, settings) => stub.prompt(input, settings)))
  .post("/:id/steer", withSettings(SteerRequestSchema, (stub, input, settings) => stub.steer(input, settings)))
  .post("/:id/follow_up", withSettings(SteerRequestSchema, (stub, input, settings) => stub.followUp(input, settings)))
  // Abort takes no body; one sent anyway meets the limit and the type rule of every other route.
  .post(
    "/:id/abort",
    inSession(async (c, { stub }) => {
      const read = await readJsonBody(c, "INVALID_JSON");
      return read.ok ? stub.abort() : read;
    }),
  )
  .post(
    "/:id/model",
    inSession(async (c, { stub }) => {
      const input = await body(c, SetModelRequestSchema);
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
  .post("/:id/thinking", withBody(SetThinkingRequestSchema, (stub, input) => stub.setThinking(input.level)))
  .get("/:id/fork-messages", inSession(async (_c, { stub }) => keyed("messages", await stub.forkMessages())))
  .post("/:id/compact", withSettings(CompactRequestSchema, (stub, input, settings) => stub.compact(input.instructions, settings)))
  .post("/:id/fork", withBody(ForkRequestSchema, (stub, input) => stub.fork(input.entryId)))
  .post("/:id/ui-response", withBody(UiResponseRequestSchema, (stub, input) => stub.uiResponse(input)))
  .post("/:id/ui-rpc", withBody(UiRpcRequestSchema, (stub, input) => stub.uiRpc(input)))
  .get("/:id/completion/triggers", inSession((_c, { stub }) => stub.completion(undefined, "")))
  // pi-web's client sends what was typed as q=; query= (our first name for it) is read too.
  .get("/:id/completion", inSession((c, { stub }) => stub.completion(c.req.query("trigger") ?? "", c.req.query("q") ?? c.req.query("query") ?? "")))
  .get("/:id/models", inSession((c) => currentCatalog(c.env)));
