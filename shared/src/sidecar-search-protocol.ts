import * as v from "valibot";
import { PositiveIntSchema } from "./positive-int.ts";
import { FailureSchema, type Failure } from "./result.ts";
import { BudgetSchema, ConfiguredUrlPolicySchema, configuredUrlPolicy, FetchOptionsSchema } from "./sidecar-protocol.ts";
import {
  AppliedSchema,
  ProviderChoiceSchema,
  ProviderErrorSchema,
  SearchResultSchema,
  WebSearchParamsSchema,
  type Applied,
  type ProviderError,
  type SearchResult,
} from "./tool-schemas.ts";
import { PROVIDER_NAMES, WebConfigSchema, type ProviderName, type WebConfig } from "./web-config.ts";

/** Most results one search may ask a provider for. */
export const MAX_SEARCH_RESULTS = 50;

/** The providers that take an API key; brave, tavily and serper cannot work without one. */
export const KEYED_PROVIDERS = ["brave", "tavily", "serper", "openserp"] as const;
export type KeyedProviderName = (typeof KEYED_PROVIDERS)[number];

/** API keys resolved by the worker (environment or /api/config/auth); never part of web config. */
export type SearchKeys = Partial<Record<KeyedProviderName, string>>;

const httpUrl = v.pipe(v.string(), v.url(), v.regex(/^https?:/i, "must be an http(s) URL"));

/**
 * Which providers' base URLs the operator set (built-in defaults or WEB_CONFIG). Those may be on a
 * private network (a local SearXNG is normal); a URL written through the config API is reached only
 * as the network policy allows.
 */
export type OperatorUrls = Record<ProviderName, boolean>;

/** True when the operator set the base URL (it may be private); false when it passes `policy`. */
const trusted = v.boolean();

const keyedProvider = (name: KeyedProviderName) =>
  v.object({
    enabled: v.boolean(),
    trusted,
    baseUrl: httpUrl,
    apiKey: v.optional(v.pipe(v.string(), v.nonEmpty())),
    /** Only named in messages that ask for a key; defaults to the config's default. */
    apiKeyEnv: WebConfigSchema.entries[name].wrapped.entries.apiKeyEnv,
  });

/** One search, with every setting it needs (the sidecar keeps no state). */
export const SidecarSearchRequestSchema = v.object({
  query: v.pipe(v.string(), v.trim(), v.nonEmpty("must not be empty")),
  numResults: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_SEARCH_RESULTS)),
  recency: WebSearchParamsSchema.entries.recency,
  includeDomains: v.optional(WebSearchParamsSchema.entries.includeDomains.wrapped, []),
  excludeDomains: v.optional(WebSearchParamsSchema.entries.excludeDomains.wrapped, []),
  /** web.provider: the service's choice when the caller makes none. */
  provider: v.picklist(["auto", ...PROVIDER_NAMES]),
  /** The caller's choice (web_search's `provider`), in place of web.provider; a list as canonicalProviders writes it. */
  requested: v.optional(ProviderChoiceSchema),
  providerPriority: v.array(v.picklist(PROVIDER_NAMES)),
  timeoutMs: PositiveIntSchema,
  maxResponseBytes: PositiveIntSchema,
  connectionPool: FetchOptionsSchema.entries.connectionPool,
  debug: FetchOptionsSchema.entries.debug,
  budgetMs: BudgetSchema,
  /** What a provider URL the operator did not set must pass. */
  policy: ConfiguredUrlPolicySchema,
  providers: v.object({
    ddgs: v.object({ baseUrl: httpUrl, trusted }),
    brave: keyedProvider("brave"),
    tavily: keyedProvider("tavily"),
    serper: keyedProvider("serper"),
    openserp: keyedProvider("openserp"),
    searxng: v.object({
      enabled: v.boolean(),
      trusted,
      /** "" when no instance is configured; as in web config, any URL (a non-http one fails the search). */
      baseUrl: v.union([v.literal(""), v.pipe(v.string(), v.url())]),
      defaultEngine: v.string(),
    }),
  }),
});
export type SidecarSearchRequest = v.InferOutput<typeof SidecarSearchRequestSchema>;
export type SearchProviderSettings = SidecarSearchRequest["providers"];

export interface SidecarSearchSuccess {
  /** The provider that answered (in `auto` mode, the first that succeeded; with several asked, the first that answered). */
  provider: ProviderName;
  results: SearchResult[];
  /** With filters: how each provider that answered applied them. */
  applied?: Record<string, Applied>;
  /** With several asked: each provider that failed. */
  providerErrors?: Record<string, ProviderError>;
  /** With several asked: how long each provider that answered took (ms). */
  latencyMs?: Record<string, number>;
}

/** What a caller asks of a search beyond its query and size: its filters and providers. */
export type SearchFilters = Pick<v.InferInput<typeof WebSearchParamsSchema>, "recency" | "includeDomains" | "excludeDomains" | "provider">;

export type ProviderChoice = v.InferOutput<typeof ProviderChoiceSchema>;

/** A list of providers without repeats, in PROVIDER_NAMES order: the same set is the same search (and cache entry) whatever order it was written in. */
export function canonicalProviders(choice: ProviderChoice): ProviderChoice {
  return Array.isArray(choice) ? PROVIDER_NAMES.filter((name) => choice.includes(name)) : choice;
}

/** A failure; PROVIDER_RATE_LIMITED carries the provider's Retry-After value beside it when it sent one. */
export type SearchFailure = Failure & { retryAfter?: string };
export type SearchOutcome<T> = { ok: true; value: T } | SearchFailure;

const TimingsSchema = v.optional(v.record(v.string(), v.number()));

/** The body of every 200 answer from POST /v1/search. */
export const SidecarSearchAnswerSchema = v.union([
  v.object({
    ok: v.literal(true),
    value: v.object({
      provider: v.picklist(PROVIDER_NAMES),
      results: v.array(SearchResultSchema),
      applied: v.optional(v.record(v.string(), AppliedSchema)),
      providerErrors: v.optional(v.record(v.string(), ProviderErrorSchema)),
      latencyMs: v.optional(v.record(v.string(), v.number())),
    }),
    timings: TimingsSchema,
  }),
  v.object({ ...FailureSchema.entries, retryAfter: v.optional(v.string()), timings: TimingsSchema }),
]);
export type SidecarSearchAnswer = v.InferOutput<typeof SidecarSearchAnswerSchema>;

/** The search request for resolved web settings; the caller validates query and numResults first. */
export function searchRequestFrom(
  config: WebConfig,
  query: string,
  numResults: number,
  keys: SearchKeys,
  operatorUrls: OperatorUrls,
  filters: SearchFilters = {},
): SidecarSearchRequest {
  const keyed = (name: KeyedProviderName) => {
    const { enabled, baseUrl, apiKeyEnv } = config[name];
    const apiKey = keys[name];
    return { enabled, trusted: operatorUrls[name], baseUrl, apiKeyEnv, ...(apiKey && { apiKey }) };
  };
  return {
    query,
    numResults,
    ...(filters.recency && { recency: filters.recency }),
    includeDomains: filters.includeDomains ?? [],
    excludeDomains: filters.excludeDomains ?? [],
    provider: config.provider,
    ...(filters.provider !== undefined && { requested: canonicalProviders(filters.provider) }),
    providerPriority: config.providerPriority,
    timeoutMs: config.timeoutMs,
    maxResponseBytes: config.maxResponseBytes,
    connectionPool: config.connectionPool,
    debug: config.debug,
    policy: configuredUrlPolicy(config),
    providers: {
      ddgs: { baseUrl: config.ddgs.baseUrl, trusted: operatorUrls.ddgs },
      brave: keyed("brave"),
      tavily: keyed("tavily"),
      serper: keyed("serper"),
      openserp: keyed("openserp"),
      searxng: { enabled: config.searxng.enabled, trusted: operatorUrls.searxng, baseUrl: config.searxng.baseUrl, defaultEngine: config.searxng.defaultEngine },
    },
  };
}
