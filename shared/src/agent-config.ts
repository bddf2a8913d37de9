import * as v from "valibot";
import { positiveInt } from "./positive-int.ts";

/** The reasoning levels a session's turns may use (POST /thinking, settings.defaultThinkingLevel). */
export const THINKING_LEVELS = ["minimal", "low", "medium", "high", "xhigh"] as const;
export type ThinkingLevel = (typeof THINKING_LEVELS)[number];

export const MODEL_APIS = ["openai-compatible", "anthropic"] as const;
export type ModelApi = (typeof MODEL_APIS)[number];

const price = v.pipe(v.number(), v.minValue(0));

/** A model a provider offers; `cost` is in USD per million tokens. */
export const ModelEntrySchema = v.object({
  id: v.pipe(v.string(), v.trim(), v.nonEmpty("must not be empty")),
  name: v.optional(v.string()),
  reasoning: v.optional(v.boolean()),
  contextWindow: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
  cost: v.optional(v.object({ input: price, output: price, cacheRead: v.optional(price), cacheWrite: v.optional(price) })),
});
export type ModelEntry = v.InferOutput<typeof ModelEntrySchema>;

/** The default system prompt: what the tools are for, and to cite what was read. */
export const DEFAULT_SYSTEM_PROMPT = [
  "You are a research assistant with four web tools.",
  "- web_search finds pages: pass `query` (or up to 5 `queries`); `includeContent: true` also reads each result.",
  "- fetch_content reads pages: pass `url` or `urls` (http or https) and get their main content as Markdown.",
  "- convert_content reads documents (PDF, Word, spreadsheets, presentations): pass `url`, or the `attachmentId` of an uploaded file; `pages` like \"1-3\" for PDFs.",
  "- get_search_content reads back a stored result by its `responseId`, whole or one item (`urlIndex`, `url`, `queryIndex`, `query`, with `resultIndex` for one search result); read a long page in parts with `offset`/`maxChars` (go on from `nextOffset`), or pass `find` (a phrase or /regex/) to get only the passages that match.",
  "Search when you need sources, fetch the pages you rely on, and answer from what you read.",
  "Cite the URL of every page you use, inline or as a list at the end. Say so when the tools found nothing useful.",
].join("\n");

/**
 * When a session's older history is summarised (docs/agent.md): before a model call whose estimate
 * passes the window less `reserveTokens`, keeping about `keepRecentTokens` of the latest messages.
 * Models configured without `contextWindow` count as `defaultContextWindow`.
 */
export const CompactionSettingsSchema = v.object({
  enabled: v.optional(v.boolean(), true),
  reserveTokens: positiveInt(16_384),
  keepRecentTokens: positiveInt(20_000),
  defaultContextWindow: positiveInt(128_000),
});
export type CompactionSettings = v.InferOutput<typeof CompactionSettingsSchema>;

/** The agent's part of the settings domain (next to the web.* keys). */
export const AgentSettingsEntries = {
  defaultProvider: v.optional(v.pipe(v.string(), v.title("Default model provider"), v.description("A name under auth.modelProviders."))),
  defaultModel: v.optional(v.pipe(v.string(), v.title("Default model"), v.description("A model id of the default provider."))),
  defaultThinkingLevel: v.optional(v.picklist(THINKING_LEVELS), "medium"),
  agent: v.optional(
    v.object({
      /** Model calls one turn may make before it stops. */
      maxSteps: positiveInt(20),
      systemPrompt: v.optional(v.string(), DEFAULT_SYSTEM_PROMPT),
      /** How long a model call may go without sending anything before the turn fails. */
      modelTimeoutMs: positiveInt(60_000),
      /** The most of one tool result the model's context gets (characters); the stored result and the stream keep it whole. */
      maxToolResultChars: positiveInt(12_000),
      compaction: v.optional(CompactionSettingsSchema, {}),
    }),
    {},
  ),
};

/** The agent's part of the sandbox domain. */
export const AgentSandboxEntries = {
  /** Every web tool call an agent makes waits for the user's approval (POST /ui-response). */
  askBeforeFetch: v.optional(v.boolean(), false),
};

export const ModelProviderSchema = v.object({
  api: v.picklist(MODEL_APIS),
  baseURL: v.pipe(v.string(), v.url(), v.regex(/^https?:/i, "must be an http(s) URL")),
  apiKey: v.optional(v.string()),
  models: v.optional(v.array(ModelEntrySchema)),
});
export type ModelProviderConfig = v.InferOutput<typeof ModelProviderSchema>;

/** The settings a turn runs with, resolved from the settings, sandbox and auth domains. */
export const AgentConfigSchema = v.object({
  ...AgentSettingsEntries,
  ...AgentSandboxEntries,
  modelProviders: v.optional(v.record(v.pipe(v.string(), v.nonEmpty()), ModelProviderSchema), {}),
});
export type AgentConfig = v.InferOutput<typeof AgentConfigSchema>;
