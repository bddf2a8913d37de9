import * as v from "valibot";
import { withoutTrailing } from "./without-trailing.ts";
import { positiveInt } from "./positive-int.ts";

export const PROVIDER_NAMES = ["ddgs", "brave", "tavily", "serper", "openserp", "searxng"] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

const flag = (fallback: boolean) => v.optional(v.boolean(), fallback);
const httpUrl = (fallback: string) =>
  v.optional(v.pipe(v.string(), v.url(), v.regex(/^https?:/i, "must be an http(s) URL")), fallback);

/** Unknown names dropped, duplicates removed, order kept. */
const providerPriority = v.optional(
  v.pipe(
    v.array(v.string()),
    v.transform((names) =>
      [...new Set(names.map((n) => n.trim().toLowerCase()))].filter((n): n is ProviderName =>
        (PROVIDER_NAMES as readonly string[]).includes(n),
      ),
    ),
  ),
  ["tavily", "serper", "brave", "openserp", "searxng", "ddgs"],
);

/** Domain names for web.deniedDomains / web.allowedDomains: lower-cased, no trailing dot, no scheme, port, path or wildcard. */
const domainList = v.optional(
  v.array(
    v.pipe(
      v.string(),
      v.trim(),
      v.toLowerCase(),
      v.transform((name) => withoutTrailing(name, ".")),
      v.nonEmpty("must not be empty"),
      v.regex(/^[^\s/:@*?#[\]\\]+$/, "must be a domain name like example.com (no scheme, port, path or wildcard)"),
    ),
  ),
  [],
);

/**
 * The worker variable a provider's key is read from. Only provider-key variables qualify, so no
 * setting can send another binding (API_TOKENS, ADMIN_TOKEN, SIDECAR_TOKEN, ATTACHMENT_SECRET,
 * AGENT_CONFIG, WEB_CONFIG, …) to a provider as its key.
 */
export const ApiKeyEnvSchema = v.pipe(
  v.string(),
  v.regex(/^[A-Z][A-Z0-9_]*_API_KEY$/, "must name a provider-key variable: upper case, ending in _API_KEY (e.g. BRAVE_SEARCH_API_KEY)"),
);

const keyedProvider = (baseUrl: string, apiKeyEnv: string) =>
  v.optional(
    v.object({
      enabled: flag(false),
      baseUrl: httpUrl(baseUrl),
      apiKeyEnv: v.optional(ApiKeyEnvSchema, apiKeyEnv),
    }),
    {},
  );

/** Every `web.*` setting with its default (docs/providers.md and docs/api.md list them). Validated once, at the boundary. */
export const WebConfigSchema = v.object({
  provider: v.optional(v.picklist(["auto", ...PROVIDER_NAMES]), "ddgs"),
  providerPriority,
  timeoutMs: positiveInt(10_000),
  maxResponseBytes: positiveInt(1_048_576),
  maxContentChars: positiveInt(30_000),
  maxResults: positiveInt(5),
  maxStoredResults: positiveInt(100),
  maxStoredContentChars: positiveInt(200_000),
  /** Most URLs one fetch_content call may ask for. */
  maxUrlsPerCall: positiveInt(20),
  allowPrivateNetwork: flag(false),
  allowHosts: v.optional(v.array(v.pipe(v.string(), v.trim(), v.nonEmpty("must not be empty"))), []),
  /** Hosts equal to or under one of these domains are never fetched. */
  deniedDomains: domainList,
  /** When non-empty, only hosts equal to or under one of these domains may be fetched. */
  allowedDomains: domainList,
  enableJinaFallback: flag(false),
  jinaTimeoutMs: positiveInt(8_000),
  jinaTriggers: v.optional(v.array(v.picklist(["short-html", "js-heavy-html"])), ["short-html", "js-heavy-html"]),
  jina: v.optional(v.object({ baseUrl: httpUrl("https://r.jina.ai/") }), {}),
  debug: v.optional(v.union([v.literal(false), v.picklist(["minimal", "verbose", "trace"])]), false),
  /** Whether pages are fetched only where their origin's robots.txt allows our product token (RFC 9309); "ignore" is the operator's call. */
  robots: v.optional(v.picklist(["respect", "ignore"], 'must be "respect" or "ignore"'), "respect"),
  /** A page about this deployment's fetcher, added to the User-Agent ("(+URL)") so site owners can read who reads them; "" leaves it out. */
  userAgentUrl: v.optional(v.union([v.literal(""), v.pipe(v.string(), v.url("must be a URL"), v.regex(/^https?:/i, "must be an http(s) URL"))]), ""),
  /** Pages rendered in the sidecar's browser: the most requests one page may make (its document included). */
  render: v.optional(v.object({ maxRequests: positiveInt(200) }), {}),
  cache: v.optional(
    v.object({
      enabled: flag(true),
      maxEntries: positiveInt(50),
      ttlMs: v.optional(v.pipe(v.number(), v.integer(), v.minValue(60_000, "KV needs a TTL of at least 60000 ms")), 300_000),
    }),
    {},
  ),
  /** Extracted pages in KV, shared by every session (docs/api.md, "The fetch cache"). */
  fetchCache: v.optional(
    v.object({
      enabled: flag(true),
      /** How old a copy may be when a call gives no maxAge. */
      maxAgeMs: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0, "must be 0 or more")), 3_600_000),
      /** How long KV keeps a copy, for calls that accept older ones and for revalidation. */
      ttlMs: v.optional(v.pipe(v.number(), v.integer(), v.minValue(60_000, "KV needs a TTL of at least 60000 ms")), 7 * 24 * 3_600_000),
    }),
    {},
  ),
  /** Site maps and crawls (docs/api.md, "Mapping and crawling a site"): the bounds every job is held to. */
  crawl: v.optional(
    v.object({
      /** The most pages one crawl may fetch (its `limit` at most). */
      maxPages: positiveInt(500),
      /** The most URLs one map answers (its `limit` at most). */
      maxMapUrls: positiveInt(5_000),
      /** The most sitemap files one map or crawl reads. */
      maxSitemaps: positiveInt(50),
      /** A crawl ends (completed, with what it has) this long after it started. */
      maxDurationMs: positiveInt(600_000),
      /** A crawl ends once its pages' bodies add up to this many bytes. */
      maxBytes: positiveInt(100 * 1024 * 1024),
      /** Pages of one host fetched at once. */
      hostConcurrency: positiveInt(2),
      /** Milliseconds between two requests to one host when its robots.txt sets no Crawl-delay. */
      hostDelayMs: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0, "must be 0 or more")), 250),
      /** Crawls running at once per session, and per API token. */
      maxConcurrentCrawls: positiveInt(2),
      /** Distinct query strings followed per path (faceted search, calendars); further ones are counted as a trap. */
      maxQueryVariants: positiveInt(10),
    }),
    {},
  ),
  concurrency: v.optional(v.object({ maxConcurrent: positiveInt(3), maxQueueSize: positiveInt(10) }), {}),
  /** The sidecar's keep-alive pool per origin: at most maxSockets connections, idle ones closed after `timeout` ms. */
  connectionPool: v.optional(v.object({ maxSockets: positiveInt(10), timeout: positiveInt(60_000) }), {}),
  /** convert_content: documents have their own caps (bytes counted decompressed). */
  convert: v.optional(
    v.object({
      maxResponseBytes: positiveInt(20 * 1024 * 1024),
      maxContentChars: positiveInt(100_000),
      timeoutMs: positiveInt(30_000),
      maxPages: positiveInt(500),
      maxRows: positiveInt(1_000),
      /** The most all entries of an Office file (a zip archive) may inflate to. */
      maxUnzippedBytes: positiveInt(100 * 1024 * 1024),
    }),
    {},
  ),
  ddgs: v.optional(v.object({ baseUrl: httpUrl("https://lite.duckduckgo.com/lite/") }), {}),
  brave: keyedProvider("https://api.search.brave.com/res/v1/web/search", "BRAVE_SEARCH_API_KEY"),
  tavily: keyedProvider("https://api.tavily.com/search", "TAVILY_API_KEY"),
  serper: keyedProvider("https://google.serper.dev/search", "SERPER_API_KEY"),
  openserp: keyedProvider("https://api.openserp.com/search", "OPENSERP_API_KEY"),
  searxng: v.optional(
    v.object({
      enabled: flag(false),
      baseUrl: v.optional(v.union([v.literal(""), v.pipe(v.string(), v.url())]), ""),
      defaultEngine: v.optional(v.string(), "google"),
    }),
    {},
  ),
});

export type WebConfig = v.InferOutput<typeof WebConfigSchema>;
export type WebConfigInput = v.InferInput<typeof WebConfigSchema>;

export const DEFAULT_WEB_CONFIG: WebConfig = v.parse(WebConfigSchema, {});


