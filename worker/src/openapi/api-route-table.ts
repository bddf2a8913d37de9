import {
  AgentMessageSchema,
  CommandSchema,
  CompactRequestSchema,
  CompactResponseSchema,
  CompletionResponseSchema,
  CompletionTriggersSchema,
  ConfigDomainResponseSchema,
  ConfigPutRequestSchema,
  CreateSessionRequestSchema,
  CreateSessionResponseSchema,
  ForkMessagesSchema,
  ForkRequestSchema,
  ForkResponseSchema,
  HealthResponseSchema,
  ModelCatalogSchema,
  OkResponseSchema,
  PromptRequestSchema,
  SessionMessageSchema,
  SessionModelsSchema,
  SessionSourceRequestSchema,
  SessionStateSchema,
  SessionStatsSchema,
  SetModelRequestSchema,
  SetThinkingRequestSchema,
  SteerRequestSchema,
  UiResponseRequestSchema,
  UiRpcRequestSchema,
  UploadRequestSchema,
  UploadResponseSchema,
  type ErrorCode,
} from "@edge-web/shared";
import * as v from "valibot";
import { CONFIG_DOMAINS } from "../config/config-domains.ts";
import type { Tool } from "../tools/tool.ts";
import { TOOLS } from "../tools/tool-registry.ts";

/** One operation of the HTTP API as the OpenAPI document describes it. */
export interface ApiRoute {
  method: "get" | "post" | "put" | "delete";
  /** Hono's pattern, e.g. /api/sessions/:id/stats. */
  path: string;
  tag: "sessions" | "tools" | "stream" | "agent" | "reads" | "config" | "attachments" | "service";
  summary: string;
  description?: string;
  /** False for routes anyone may call (health, signed downloads, the description itself); "admin" for those that need ADMIN_TOKEN when it is set. */
  auth?: false | "admin";
  /** Path parameters that take only these values (others are plain strings). */
  pathValues?: Record<string, readonly string[]>;
  query?: Record<string, { description: string; required?: true }>;
  headers?: Record<string, string>;
  /**
   * `needs`: keys of which the body must name at least one or exactly one; `onlyWith`: keys the body
   * may name only next to one of some others (both checked past the schema).
   */
  body?: { schema: v.GenericSchema; type?: "multipart/form-data"; needs?: Tool["needs"]; onlyWith?: Tool["onlyWith"] };
  /** The success answer; `schema` absent for bodies that are not JSON. */
  ok: { status: number; description: string; schema?: v.GenericSchema; type?: string };
  /** What the route may answer besides success (INTERNAL_ERROR and PROTOCOL_VERSION_MISMATCH always). */
  errors: ErrorCode[];
  /** Answers outside the error envelope, by status (plain-text refusals, JSON-RPC errors). */
  otherResponses?: Record<string, { description: string; type: string }>;
}

/** UNAUTHORIZED and FORBIDDEN are added by the document to every route behind auth. */
const SESSION: ErrorCode[] = ["SESSION_NOT_FOUND"];
/** What reading a JSON body may answer (VALIDATION_FAILED added where a schema checks it). */
const READ: ErrorCode[] = ["INVALID_JSON", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE"];
const BODY: ErrorCode[] = [...READ, "VALIDATION_FAILED"];
const keyedBy = (key: string, schema: v.GenericSchema) => v.object({ [key]: schema });

const TOOL_ERRORS: Record<string, ErrorCode[]> = {
  web_search: ["WEB_SEARCH_FAILED", "WEB_SEARCH_TIMEOUT", "WEB_SEARCH_INVALID_QUERY", "PROVIDER_RATE_LIMITED", "PROVIDER_UNAVAILABLE", "PROVIDER_AUTH_FAILED", "NETWORK_ERROR", "CONTENT_FETCH_FAILED", "CONTENT_FETCH_TIMEOUT"],
  fetch_content: ["CONTENT_FETCH_FAILED", "CONTENT_FETCH_TIMEOUT", "CONTENT_FETCH_INVALID_URL", "NETWORK_ERROR"],
  get_search_content: ["NOT_FOUND"],
  convert_content: ["FILE_NOT_FOUND", "FILE_TOO_LARGE", "UNSUPPORTED_PROTOCOL", "CONVERT_TIMEOUT", "CONVERT_FAILED", "NETWORK_ERROR", "PRIVATE_NETWORK_BLOCKED"],
};

const toolRoutes: ApiRoute[] = Object.values(TOOLS).map((tool) => ({
  method: "post",
  path: `/api/sessions/:id/tools/${tool.name}`,
  tag: "tools",
  summary: tool.title,
  description: tool.description,
  body: { schema: tool.params, ...(tool.needs && { needs: tool.needs }), ...(tool.onlyWith && { onlyWith: tool.onlyWith }) },
  ok: { status: 200, description: "The tool's answer; its `responseId` reads it again with get_search_content.", schema: tool.output },
  errors: [...SESSION, "SESSION_ENDED", "INVALID_INPUT", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE", ...TOOL_ERRORS[tool.name]!],
}));

const agent = (path: string, summary: string, body: v.GenericSchema | undefined, errors: ErrorCode[] = [], ok: ApiRoute["ok"] = { status: 200, description: "Accepted.", schema: OkResponseSchema }): ApiRoute => ({
  method: "post",
  path: `/api/sessions/:id/${path}`,
  tag: "agent",
  summary,
  ...(body && { body: { schema: body } }),
  ok,
  errors: [...SESSION, "SESSION_ENDED", ...(body ? BODY : []), ...errors],
});

const read = (path: string, summary: string, schema: v.GenericSchema, extra: Partial<ApiRoute> = {}): ApiRoute => ({
  method: "get",
  path: `/api/sessions/:id/${path}`,
  tag: "reads",
  summary,
  ok: { status: 200, description: summary, schema },
  errors: SESSION,
  ...extra,
});

/** Every route of the API; a test checks that the app serves exactly these. */
export const API_ROUTES: ApiRoute[] = [
  {
    method: "get",
    path: "/healthz",
    tag: "service",
    summary: "Health",
    description: "200 only when the sidecar that makes every outbound request answers too.",
    auth: false,
    ok: { status: 200, description: "The service and its sidecar answer.", schema: HealthResponseSchema },
    errors: ["SIDECAR_UNAVAILABLE"],
  },
  {
    method: "get",
    path: "/openapi.json",
    tag: "service",
    summary: "This description",
    auth: false,
    ok: { status: 200, description: "The OpenAPI 3.1 document.", type: "application/json" },
    errors: [],
  },
  {
    method: "post",
    path: "/api/sessions",
    tag: "sessions",
    summary: "Create a session",
    body: { schema: CreateSessionRequestSchema },
    ok: { status: 201, description: "The session was created.", schema: CreateSessionResponseSchema },
    errors: BODY,
  },
  {
    method: "delete",
    path: "/api/sessions/:id",
    tag: "sessions",
    summary: "Delete a session",
    description: "Stops everything running, closes its streams and deletes its results, history, frames and attachments.",
    ok: { status: 200, description: "Deleted.", schema: OkResponseSchema },
    errors: SESSION,
  },
  ...toolRoutes,
  {
    method: "get",
    path: "/api/sessions/:id/stream",
    tag: "stream",
    summary: "Follow the session live",
    description:
      "Server-sent events: `event: uiMessageChunk` frames (AI SDK UI-message chunks of tool calls and turns) and `event: control` frames, each with a numbered `id:`. Send Last-Event-ID (or ?lastEventId=) to replay what came after it; 0 replays everything kept.",
    query: { lastEventId: { description: "Replay the frames after this id (for clients that cannot send Last-Event-ID)." } },
    headers: { "Last-Event-ID": "Replay the frames after this id." },
    ok: { status: 200, description: "An event stream; it stays open until the session ends or the client leaves.", type: "text/event-stream" },
    errors: [...SESSION, "SESSION_ENDED"],
  },
  read("state", "The session's state", keyedBy("state", SessionStateSchema)),
  read("stats", "What the session did: messages, tool calls, tokens, cost, fetches", keyedBy("stats", SessionStatsSchema)),
  read("messages", "The session's history: pi's messages, or AI SDK UIMessages with ?format=ui", keyedBy("messages", v.union([v.array(AgentMessageSchema), v.array(SessionMessageSchema)])), {
    query: { format: { description: "pi (the default): pi's messages (user, assistant with text, thinking and tool calls, toolResult, compactionSummary); ui: AI SDK UIMessages." } },
    errors: [...SESSION, "VALIDATION_FAILED"],
  }),
  read("commands", "The slash commands a message may be (pi's command shape)", keyedBy("commands", v.array(CommandSchema))),
  read("models", "The models a turn may use, in pi's Model shape", SessionModelsSchema, { tag: "agent" }),
  agent("messages", "Send a message (starts a turn, or steers or follows one)", PromptRequestSchema, ["SESSION_BUSY", "MODEL_NOT_CONFIGURED", "ATTACHMENT_NOT_FOUND"]),
  agent("steer", "Steer the running turn", SteerRequestSchema, ["MODEL_NOT_CONFIGURED"]),
  agent("follow_up", "Queue a message for after the running turn", SteerRequestSchema, ["MODEL_NOT_CONFIGURED"]),
  agent("abort", "Abort the running turn", undefined, READ),
  agent("model", "Choose the model of the next turns", SetModelRequestSchema),
  agent("thinking", "Choose the thinking level of the next turns", SetThinkingRequestSchema),
  agent("compact", "Summarise the older history for the model (the full history stays readable)", CompactRequestSchema, ["SESSION_BUSY", "MODEL_NOT_CONFIGURED"], {
    status: 200,
    description: "Compacted, or `compacted: false` with the reason (nothing to compact, aborted, the summary failed). 409 SESSION_BUSY while a turn runs.",
    schema: CompactResponseSchema,
  }),
  agent("fork", "Cut the history back to before a user message", ForkRequestSchema, ["ENTRY_NOT_FOUND", "SESSION_BUSY"], { status: 200, description: "The history was cut.", schema: ForkResponseSchema }),
  agent("ui-response", "Answer a request for the user (an approval)", UiResponseRequestSchema, ["UNKNOWN_EXTENSION_UI"]),
  agent("ui-rpc", "Call a UI method; the answer arrives on the stream", UiRpcRequestSchema),
  read("fork-messages", "The user messages a fork may start from", ForkMessagesSchema, { tag: "agent" }),
  read("completion/triggers", "Completion triggers", CompletionTriggersSchema, { tag: "agent" }),
  read("completion", "Completions for a trigger", CompletionResponseSchema, {
    tag: "agent",
    query: {
      trigger: { description: "A trigger from /completion/triggers; another, or none, has no items." },
      q: { description: "What was typed after the trigger." },
      query: { description: "The same as q (read when q is absent)." },
    },
  }),
  {
    method: "post",
    path: "/api/sessions/:id/attachments",
    tag: "attachments",
    summary: "Upload an attachment",
    body: { schema: UploadRequestSchema, type: "multipart/form-data" },
    ok: { status: 200, description: "Stored with the session.", schema: UploadResponseSchema },
    errors: [...SESSION, "SESSION_ENDED", "NO_FILE", "PAYLOAD_TOO_LARGE"],
  },
  {
    method: "get",
    path: "/api/attachments/:id/raw",
    tag: "attachments",
    summary: "Download an attachment by its signed URL",
    auth: false,
    query: { exp: { description: "Expiry (from the signed URL).", required: true }, sig: { description: "Signature (from the signed URL).", required: true } },
    ok: { status: 200, description: "The file's bytes, served with the Content-Type stored for it at upload: any type.", type: "*/*" },
    errors: ["INVALID_SIGNATURE", "ATTACHMENT_NOT_FOUND"],
  },
  {
    method: "post",
    path: "/api/session-source",
    tag: "sessions",
    summary: "Record which source a session came from (best effort)",
    description: "The caller must be allowed to use the session (as on every session route); bad bodies are answered in plain text.",
    body: { schema: SessionSourceRequestSchema },
    ok: { status: 204, description: "Recorded, or the write failed quietly." },
    errors: SESSION,
    otherResponses: {
      "400": { description: "Plain text: the body is not JSON with string id and source.", type: "text/plain" },
      "413": { description: "Plain text: the body is over 1 MiB.", type: "text/plain" },
      "415": { description: "Plain text: the body is not sent with Content-Type: application/json.", type: "text/plain" },
    },
  },
  {
    method: "post",
    path: "/mcp",
    tag: "service",
    summary: "MCP (Streamable HTTP)",
    description:
      "The tools over the Model Context Protocol, for MCP clients: JSON-RPC 2.0 requests (initialize, tools/list, tools/call), protocol 2025-11-25 and the stateless 2026-07-28 revision. Each caller's calls run in a session of its own; a result's _meta.sessionId names it. A browser page from an origin that is not served (scheme, host and port) or listed in API_CORS_ORIGINS is refused with a JSON-RPC error (403).",
    body: { schema: v.looseObject({ jsonrpc: v.literal("2.0"), method: v.string(), id: v.optional(v.union([v.string(), v.number()])), params: v.optional(v.unknown()) }) },
    ok: { status: 200, description: "A JSON-RPC answer: application/json, or text/event-stream (2025-11-25 clients get a stream).", type: "application/json" },
    errors: [],
    otherResponses: {
      "202": { description: "A notification, accepted.", type: "text/plain" },
      "400": { description: "A JSON-RPC error: an invalid message, or a batch (one request per HTTP request).", type: "application/json" },
      "405": { description: "A JSON-RPC error, with Allow: POST, to every other method: this endpoint keeps no sessions and opens no stream of its own.", type: "application/json" },
      "406": { description: "A JSON-RPC error: the Accept header must allow application/json and text/event-stream.", type: "application/json" },
      "413": { description: "A JSON-RPC error: the body is over 1 MiB.", type: "application/json" },
      "415": { description: "A JSON-RPC error: the body must be application/json.", type: "application/json" },
    },
  },
  {
    method: "get",
    path: "/api/config/models",
    tag: "config",
    summary: "The configured model providers and their models",
    description: "Open to every token holder; callers other than the admin get each model's id, provider and name only.",
    ok: { status: 200, description: "The catalog.", schema: ModelCatalogSchema },
    errors: [],
  },
  {
    method: "get",
    path: "/api/config/:domain",
    tag: "config",
    summary: "A config domain (auth, settings, sandbox): its form and values",
    pathValues: { domain: CONFIG_DOMAINS },
    auth: "admin",
    description: "Needs ADMIN_TOKEN whenever tokens are configured (with API_TOKENS but no ADMIN_TOKEN it is refused).",
    ok: { status: 200, description: "Secrets are masked.", schema: ConfigDomainResponseSchema },
    errors: ["DOMAIN_NOT_FOUND"],
  },
  {
    method: "put",
    path: "/api/config/:domain",
    tag: "config",
    summary: "Change a config domain",
    pathValues: { domain: CONFIG_DOMAINS },
    auth: "admin",
    description: "Needs ADMIN_TOKEN whenever tokens are configured (with API_TOKENS but no ADMIN_TOKEN it is refused). Takes effect for the next call everywhere.",
    body: { schema: ConfigPutRequestSchema },
    ok: { status: 200, description: "Stored.", schema: OkResponseSchema },
    errors: ["DOMAIN_NOT_FOUND", "SCHEMA_VALIDATION_FAILED", ...BODY],
  },
];

