import * as v from "valibot";
import { PositiveIntSchema } from "./positive-int.ts";
import { FailureSchema } from "./result.ts";
import { SentRobotsEntriesSchema, SentRobotsEntrySchema } from "./robots-record.ts";
import { ExtractedContentSchema, FetchContentParamsSchema } from "./tool-schemas.ts";
import { WebConfigSchema, type WebConfig } from "./web-config.ts";


/** Milliseconds the whole request may take, every queue included (the caller's deadline). */
export const BudgetSchema = v.optional(PositiveIntSchema);

/** The keep-alive pools the sidecar opens for a request's origin (web.connectionPool). */
export const ConnectionPoolSchema = WebConfigSchema.entries.connectionPool.wrapped;
export type ConnectionPool = v.InferOutput<typeof ConnectionPoolSchema>;

/** The settings the sidecar needs for one fetch, sent with every request (the sidecar keeps no state). */
export const FetchOptionsSchema = v.object({
  timeoutMs: WebConfigSchema.entries.timeoutMs,
  maxResponseBytes: WebConfigSchema.entries.maxResponseBytes,
  maxContentChars: WebConfigSchema.entries.maxContentChars,
  allowPrivateNetwork: WebConfigSchema.entries.allowPrivateNetwork,
  allowHosts: WebConfigSchema.entries.allowHosts,
  deniedDomains: WebConfigSchema.entries.deniedDomains,
  allowedDomains: WebConfigSchema.entries.allowedDomains,
  enableJinaFallback: WebConfigSchema.entries.enableJinaFallback,
  jinaTimeoutMs: WebConfigSchema.entries.jinaTimeoutMs,
  jinaTriggers: WebConfigSchema.entries.jinaTriggers,
  jinaBaseUrl: WebConfigSchema.entries.jina.wrapped.entries.baseUrl,
  connectionPool: WebConfigSchema.entries.connectionPool,
  renderMaxRequests: WebConfigSchema.entries.render.wrapped.entries.maxRequests,
  userAgentUrl: WebConfigSchema.entries.userAgentUrl,
  robots: WebConfigSchema.entries.robots,
  /** "verbose" asks for per-step timings in the answer. */
  debug: WebConfigSchema.entries.debug,
});
export type FetchOptions = v.InferOutput<typeof FetchOptionsSchema>;

/**
 * What a URL written through the config API must pass: the fetch policy with no private-network
 * exemption but web.allowHosts (web.allowPrivateNetwork speaks for pages, not for where secrets go).
 */
export const ConfiguredUrlPolicySchema = v.object({
  allowHosts: FetchOptionsSchema.entries.allowHosts,
  deniedDomains: FetchOptionsSchema.entries.deniedDomains,
  allowedDomains: FetchOptionsSchema.entries.allowedDomains,
});
export type ConfiguredUrlPolicy = v.InferOutput<typeof ConfiguredUrlPolicySchema>;

export const configuredUrlPolicy = (config: WebConfig): ConfiguredUrlPolicy => ({
  allowHosts: config.allowHosts,
  deniedDomains: config.deniedDomains,
  allowedDomains: config.allowedDomains,
});

/**
 * What the operator's own URLs (WEB_CONFIG's search providers, AGENT_CONFIG's model providers) are
 * held to: they are the operator's to choose, and self-hosted services often live on private
 * networks. A fresh object per call: nobody shares one to change.
 */
export const operatorUrlPolicy = () => ({ allowPrivateNetwork: true, allowHosts: [] as string[], deniedDomains: [] as string[], allowedDomains: [] as string[] });

/** POST /v1/vet: may a configured URL (or a page's, with allowPrivateNetwork) be reached? Answered with the vetted address, or the egress failure. */
export const SidecarVetRequestSchema = v.object({
  url: v.string(),
  policy: ConfiguredUrlPolicySchema,
  budgetMs: BudgetSchema,
  /** Set for a page's URL (a crawl's start): web.allowPrivateNetwork then applies as it does to fetches. A configured URL never sends it. */
  allowPrivateNetwork: v.optional(v.boolean()),
});
export type SidecarVetRequest = v.InferOutput<typeof SidecarVetRequestSchema>;
export const SidecarVetAnswerSchema = v.union([v.object({ ok: v.literal(true), value: v.object({ address: v.string() }) }), FailureSchema]);

/**
 * What a page request asks of the sidecar beyond its URL. Each option changes what the sidecar
 * makes of the page, so the fetch cache keys on every one of them (worker/src/cache/fetch-cache-key.ts):
 * a new page option joins the key by being listed here.
 */
export const PageOptionsSchema = v.object({
  preferReader: v.optional(v.boolean(), false),
  render: v.optional(FetchContentParamsSchema.entries.render.wrapped, "auto"),
  waitForSelector: FetchContentParamsSchema.entries.waitForSelector,
  includeSelectors: FetchContentParamsSchema.entries.includeSelectors,
  excludeSelectors: FetchContentParamsSchema.entries.excludeSelectors,
  /** A crawl's page: the answer lists the page's links (ExtractedContent.links). */
  links: v.optional(v.boolean(), false),
});
export type PageOptions = v.InferInput<typeof PageOptionsSchema>;

/**
 * robots.txt records crossing between worker and sidecar (the worker keeps them in KV, shared by
 * every sidecar): the one the worker holds for the URL's origin, used by the sidecar while fresh
 * by its own time stamp (an invalid one is dropped and robots.txt read again); and those the
 * sidecar read afresh for the request, any hop's, answered with its success or failure.
 */
export const RobotsGivenSchema = v.optional(SentRobotsEntrySchema);
export const RobotsReadSchema = v.optional(SentRobotsEntriesSchema);

/** A copy's validators: the origin's ETag and Last-Modified, as it sent them. */
export const ValidatorsSchema = v.object({ etag: v.optional(v.string()), lastModified: v.optional(v.string()) });
export type Validators = v.InferOutput<typeof ValidatorsSchema>;

export const SidecarFetchRequestSchema = v.object({
  url: v.string(),
  ...PageOptionsSchema.entries,
  /** A cached copy's validators: the request is made conditional (If-None-Match, If-Modified-Since), and a 304 answers `notModified`. */
  revalidate: v.optional(ValidatorsSchema),
  options: v.optional(FetchOptionsSchema, {}),
  budgetMs: BudgetSchema,
  robotsRecord: RobotsGivenSchema,
  /** The session the fetch is for, as an opaque key (the worker sends its session object's id): the sidecar shares its render slots fairly between sessions. */
  sessionKey: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(128))),
});
export type SidecarFetchRequest = v.InferInput<typeof SidecarFetchRequestSchema>;

/** Per-step milliseconds, present when the request asked for verbose debugging. */
const TimingsSchema = v.optional(v.record(v.string(), v.number()));

/** A rendered page's requests through the render proxy, and how many of them it refused. */
export const RenderCountsSchema = v.object({ requests: v.number(), refused: v.number() });
export type RenderCounts = v.InferOutput<typeof RenderCountsSchema>;

/**
 * What the origin's answer said about keeping the page: its validators, only when they describe the
 * content answered (not a rendered page's, nor the reader's), and its Cache-Control.
 */
export const PageCachingSchema = v.object({ validators: v.optional(ValidatorsSchema), cacheControl: v.optional(v.string()) });
export type PageCaching = v.InferOutput<typeof PageCachingSchema>;

/**
 * The body of every 200 answer from POST /v1/fetch: the page, the body bytes read for it, what the
 * origin said about keeping it and, when rendered, its render's counts; `notModified` when the
 * origin answered a conditional request with 304; or a failure. Each may carry `robotsRead`.
 */
export const SidecarFetchAnswerSchema = v.union([
  v.object({ ok: v.literal(true), notModified: v.literal(true), caching: PageCachingSchema, timings: TimingsSchema, robotsRead: RobotsReadSchema }),
  v.object({
    ok: v.literal(true),
    value: ExtractedContentSchema,
    bytes: v.number(),
    caching: v.optional(PageCachingSchema),
    render: v.optional(RenderCountsSchema),
    timings: TimingsSchema,
    robotsRead: RobotsReadSchema,
  }),
  v.object({ ...FailureSchema.entries, timings: TimingsSchema, robotsRead: RobotsReadSchema }),
]);
export type SidecarFetchAnswer = v.InferOutput<typeof SidecarFetchAnswerSchema>;

/** The fetch budget of a call: web.timeoutMs, plus web.jinaTimeoutMs when the reader may follow. */
export function fetchBudgetMs(config: Pick<WebConfig, "timeoutMs" | "enableJinaFallback" | "jinaTimeoutMs">): number {
  return config.timeoutMs + (config.enableJinaFallback ? config.jinaTimeoutMs : 0);
}

export function fetchOptionsFrom(config: WebConfig): FetchOptions {
  return {
    timeoutMs: config.timeoutMs,
    maxResponseBytes: config.maxResponseBytes,
    maxContentChars: config.maxContentChars,
    allowPrivateNetwork: config.allowPrivateNetwork,
    allowHosts: config.allowHosts,
    deniedDomains: config.deniedDomains,
    allowedDomains: config.allowedDomains,
    enableJinaFallback: config.enableJinaFallback,
    jinaTimeoutMs: config.jinaTimeoutMs,
    jinaTriggers: config.jinaTriggers,
    jinaBaseUrl: config.jina.baseUrl,
    connectionPool: config.connectionPool,
    renderMaxRequests: config.render.maxRequests,
    userAgentUrl: config.userAgentUrl,
    robots: config.robots,
    debug: config.debug,
  };
}
