import * as v from "valibot";
import { described } from "./described.ts";
import { THINKING_LEVELS } from "./agent-config.ts";
import { isPlainObject, type JsonObject } from "./merge-patch.ts";
import { FailureDetailsSchema } from "./result.ts";

/**
 * The HTTP API's answers, as valibot schemas: the OpenAPI document is generated from them, and the
 * tests check real answers against them. Every JSON body also carries `protocolVersion`.
 */
export const CreateSessionResponseSchema = v.object({ sessionId: described(v.string(), "The new session's id (a UUID).") });
export const OkResponseSchema = v.object({ ok: v.literal(true) });
export const HealthResponseSchema = v.object({ ok: v.literal(true), sidecar: v.literal("ok") });

export const ErrorBodySchema = v.object({
  error: v.object({
    code: described(v.string(), "A stable code; the table of codes by status is in the API reference."),
    message: described(v.string(), "What went wrong and what to do."),
    fields: v.optional(described(v.array(v.string()), "For validation failures: the offending field paths.")),
    details: v.optional(
      described(
        FailureDetailsSchema,
        "Whose fault it is, where the code covers several (the status follows it): policy 403, not-found 404/410, unsupported-type 415, unreadable 422, too-many-requests 429, upstream 502, unavailable 503; `upstreamStatus` is what the origin or provider answered.",
      ),
    ),
  }),
  protocolVersion: v.string(),
});

/** pi's `Model`: a model a turn may use, as `GET /models`, `GET /state` and the admin's `GET /api/config/models` show it. */
export const ModelSchema = v.object({
  id: v.string(),
  name: v.string(),
  api: described(v.string(), "The provider's wire format, by pi's names: openai-completions (OpenAI-compatible) or anthropic-messages."),
  provider: described(v.string(), "Its provider's name under auth.modelProviders."),
  baseUrl: described(v.string(), "Always empty: the server calls the model, and a provider's address is not shown."),
  reasoning: v.boolean(),
  input: described(v.array(v.picklist(["text", "image"])), "What a message to it may hold: a turn sends images to every model."),
  cost: described(v.object({ input: v.number(), output: v.number(), cacheRead: v.number(), cacheWrite: v.number() }), "USD per million tokens; 0 where no price is configured."),
  contextWindow: described(v.number(), "Tokens; agent.compaction.defaultContextWindow where none is configured."),
  maxTokens: described(v.number(), "The most tokens an answer may have: the window (a turn sets no output limit of its own)."),
});

export const SessionStateSchema = v.object({
  sessionId: v.string(),
  status: v.picklist(["active", "ended"]),
  thinkingLevel: v.picklist(THINKING_LEVELS),
  isStreaming: described(v.boolean(), "A turn or a tool call is running."),
  isCompacting: v.boolean(),
  steeringMode: v.picklist(["all", "one-at-a-time"]),
  followUpMode: v.picklist(["all", "one-at-a-time"]),
  autoCompactionEnabled: v.boolean(),
  messageCount: v.number(),
  pendingMessageCount: v.number(),
  model: v.optional(described(ModelSchema, "The model a turn would call now; absent when none is configured.")),
  subscribers: described(v.number(), "Open streams of this session."),
  lastEventId: described(v.number(), "The newest frame's id: resume a stream after it with Last-Event-ID."),
  source: v.string(),
  cwd: v.optional(v.string()),
  createdAt: described(v.number(), "Milliseconds since the epoch."),
});

const TokensSchema = v.object({ input: v.number(), output: v.number(), cacheRead: v.number(), cacheWrite: v.number(), total: v.number() });

export const SessionStatsSchema = v.object({
  sessionId: v.string(),
  userMessages: v.number(),
  assistantMessages: v.number(),
  toolCalls: v.number(),
  toolResults: v.number(),
  totalMessages: v.number(),
  tokens: TokensSchema,
  cost: described(v.number(), "Model cost in the price table's currency (USD unless configured otherwise)."),
  compactions: described(
    v.object({ count: v.number(), tokens: v.object({ input: v.number(), output: v.number() }), tokensSaved: v.number() }),
    "Compactions made (docs/agent.md): how many, the tokens their summary calls used (also in `tokens` and `cost`), and the estimated tokens they took off the model's context.",
  ),
  web: v.object({
    searches: v.number(),
    fetches: v.number(),
    conversions: v.number(),
    pagesFetched: v.number(),
    bytesFetched: v.number(),
    pagesRendered: described(v.number(), "Pages fetch_content rendered in the sidecar's browser."),
    renderRequestsRefused: described(v.number(), "Requests those pages made that the render proxy refused (network policy, web.render.maxRequests, byte cap)."),
    cacheHits: described(v.number(), "Searches answered from the search cache."),
    cacheMisses: described(v.number(), "Searches the search cache could not answer."),
    fetchCache: described(
      v.object({ hits: v.number(), misses: v.number(), revalidated: v.number() }),
      "Pages (fetch_content, web_search's includeContent) answered from the fetch cache as they were (hits), read from the origin with the cache on (misses: no copy, none young enough without validators, or the origin sent a changed page or failed), and cached copies the origin confirmed with a 304 (revalidated).",
    ),
    errors: described(v.record(v.string(), v.number()), "Failed tool calls by error code."),
    providers: v.record(v.string(), v.object({ searches: v.number(), p50Ms: v.nullable(v.number()) })),
  }),
});

export const SessionMessageSchema = v.looseObject({
  id: v.string(),
  role: v.picklist(["user", "assistant", "system"]),
  parts: described(v.array(v.looseObject({ type: v.string() })), "AI SDK UIMessage parts: text, reasoning, file, tool-<name>, data-<name>."),
  metadata: v.optional(v.unknown()),
});

/** A slash command in pi's shape (its RpcSlashCommand), with how to use it and the tool it runs. */
export const CommandSchema = v.looseObject({
  name: described(v.string(), "What follows the slash: the command is typed as \"/\" + name and its arguments."),
  description: v.string(),
  source: v.picklist(["extension", "prompt", "skill"]),
  sourceInfo: v.looseObject({
    path: v.string(),
    source: v.string(),
    scope: v.picklist(["user", "project", "temporary"]),
    origin: v.picklist(["package", "top-level"]),
  }),
  usage: v.string(),
  tool: v.optional(v.string()),
});
export type ListedCommand = v.InferOutput<typeof CommandSchema>;

/** A session's models (`GET /api/sessions/:id/models`): pi's answer (`models`) plus the provider names. */
export const SessionModelsSchema = v.object({ providers: v.array(v.string()), models: v.array(ModelSchema) });

/** `GET /api/config/models`: whole models for the admin (and on an open server), ids and names for other token holders. */
export const ModelCatalogSchema = v.object({
  providers: v.array(v.string()),
  models: v.array(v.union([ModelSchema, v.object({ id: v.string(), provider: v.string(), name: v.string() })])),
});

export const ForkMessagesSchema = v.object({ messages: v.array(v.object({ entryId: v.string(), text: v.string() })) });
export const ForkResponseSchema = v.object({ text: described(v.string(), "The text of the message the history was cut before, to prefill an editor.") });
/** A completion trigger in pi-web's shape: `extract` is how a client cuts the typed token (`lineStart`: the trigger opens a line; `wordTail`: the word the cursor ends). */
export const CompletionTriggerSchema = v.object({
  trigger: v.string(),
  extract: v.picklist(["wordTail", "lineStart"]),
  description: v.string(),
});
export type CompletionTrigger = v.InferOutput<typeof CompletionTriggerSchema>;
export const CompletionTriggersSchema = v.object({ triggers: v.array(CompletionTriggerSchema) });

/** A completion in pi-web's shape: a client replaces the typed token with `insertText` and a space. */
export const CompletionItemSchema = v.object({
  providerId: described(v.string(), "What made it: commands or results."),
  kind: described(v.string(), "What it is (command, result); clients group items by it."),
  id: described(v.string(), "The command's name or the result's responseId."),
  label: v.string(),
  detail: v.optional(v.string()),
  insertText: described(v.optional(v.string()), "What replaces the token: /<command> or @<responseId>."),
});
export type CompletionItem = v.InferOutput<typeof CompletionItemSchema>;
/** At most 30 items, and how many of each kind. */
export const CompletionResponseSchema = v.object({ items: v.array(CompletionItemSchema), groups: v.array(v.object({ kind: v.string(), count: v.number() })) });
export type CompletionResponse = v.InferOutput<typeof CompletionResponseSchema>;

export const ConfigDomainResponseSchema = v.object({
  formSchema: described(v.record(v.string(), v.unknown()), "The domain's fields as a form description (types, defaults, which are secret)."),
  values: described(v.record(v.string(), v.unknown()), "The values in effect; secrets masked."),
});
export const ConfigPutRequestSchema = v.object({
  values: v.pipe(
    v.custom<JsonObject>(isPlainObject, "must be an object of the domain's values"),
    // The converter copies metadata into the JSON Schema: what the custom check means there.
    v.metadata({ type: "object" }),
    v.description("The fields to change, merged into the stored domain."),
  ),
});

/** Other fields of the reference's request (such as `env`, for a local agent process) are accepted and ignored. */
export const CreateSessionRequestSchema = v.looseObject({
  source: described(v.string("source is required: a string naming the agent or client"), "Who opens the session (an agent or client name)."),
  cwd: v.optional(v.string()),
  model: v.optional(v.string()),
  resumeId: v.optional(
    described(v.string(), "A session to resume: the caller's own active session by that id is answered, with its history; any other id (unknown, deleted, ended, another caller's) gets a new session."),
  ),
});

export const AttachmentSchema = v.object({
  id: v.string(),
  name: v.string(),
  mimeType: v.string(),
  size: v.number(),
  origin: v.picklist(["upload", "inline"]),
  sessionId: v.string(),
  createdAt: described(v.pipe(v.string(), v.isoTimestamp()), "When it was stored (ISO 8601)."),
});
export const UploadResponseSchema = v.object({ attachment: AttachmentSchema, displayUrl: described(v.string(), "A signed URL to download it, valid for a limited time.") });
export const UploadRequestSchema = v.object({ file: described(v.string(), "The file (multipart/form-data, binary).") });
export const SessionSourceRequestSchema = v.object({ id: v.string(), source: v.string() });
