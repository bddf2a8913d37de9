/**
 * The worker's bindings (wrangler.toml) and secrets. Everything imports this file, so it imports
 * nothing: the Durable Object namespaces get their classes where the stubs are made
 * (session/session-stub.ts, config/load-settings.ts).
 */
export interface Env {
  /** The SessionObjects, one per session. */
  SESSIONS: DurableObjectNamespace;
  /** The singleton ConfigObject holding what the config API stored (idFromName("config")). */
  CONFIG: DurableObjectNamespace;
  /** The CrawlObjects, one per crawl (idFromName(crawlId)). */
  CRAWLS: DurableObjectNamespace;
  /** The CrawlQuotaObjects, one per owner (idFromName(owner)): crawls running at once. */
  CRAWL_QUOTAS: DurableObjectNamespace;
  /** The crawl queue (a Cloudflare Queue, this worker its consumer): one message per page to fetch (crawl/crawl-message.ts). */
  CRAWL_QUEUE: Queue<{ crawlId: string; seq: number; attempt: number }>;
  CACHE: KVNamespace;
  ATTACHMENTS: R2Bucket;
  /**
   * The playground's static files (worker/public). Deployed, Cloudflare serves them before the worker runs;
   * under `npm start` the worker is served first and hands them paths no route takes.
   */
  ASSETS?: Fetcher;
  /** Base URL of the sidecar (or the sidecar pool's address). */
  SIDECAR_URL: string;
  /** The sidecar as a service binding, when there is one (`npm start` binds its socket): requests to SIDECAR_URL go through it (sidecar-fetch.ts). */
  SIDECAR?: Fetcher;
  /** Bearer token the sidecar requires. */
  SIDECAR_TOKEN?: string;
  /**
   * The sidecar containers (SidecarContainer, Cloudflare Containers), when deployed with them
   * (`wrangler deploy --env containers`): requests to SIDECAR_URL go to one of them instead (sidecar-fetch.ts).
   */
  SIDECAR_CONTAINER?: DurableObjectNamespace;
  /** How many sidecar containers calls are spread over (default 1); at most the container's max_instances. */
  SIDECAR_INSTANCES?: string;
  /** The reader service's key and address (docs/operations.md), passed to sidecar containers' environment. */
  JINA_API_KEY?: string;
  JINA_BASE_URL?: string;
  /** JSON object merged over the web.* defaults. */
  WEB_CONFIG?: string;
  /** JSON object merged over the agent's defaults: defaultProvider, defaultModel, defaultThinkingLevel, agent, askBeforeFetch, modelProviders. */
  AGENT_CONFIG?: string;
  /** Comma-separated model provider names (case-sensitive) hidden from GET /api/config/models. */
  PI_WEB_HIDE_PROVIDERS?: string;
  /** Comma-separated bearer tokens for the API; unset means open (local development). */
  API_TOKENS?: string;
  /** Comma-separated host names an open server (no API_TOKENS) answers to besides localhost; their http and https origins on the request's port are served origins. */
  SERVED_HOSTNAMES?: string;
  /** Comma-separated origins (https://app.example.com) of other sites' pages that may call /api and /mcp, with CORS answers. */
  API_CORS_ORIGINS?: string;
  /** Bearer token required for configuration writes, when set. */
  ADMIN_TOKEN?: string;
  /** HMAC key for attachment URLs. */
  ATTACHMENT_SECRET?: string;
  /** Upload size limit in bytes for attachments; default 26214400 (25 MiB). */
  ATTACHMENT_MAX_BYTES?: string;
  /** Sessions end after this long without activity (default one day). */
  SESSION_IDLE_MS?: string;
  /** Messages kept per session (default 1000). */
  SESSION_MAX_MESSAGES?: string;
  /** Frames kept per session for Last-Event-ID replay (default 1000). */
  SSE_REPLAY_FRAMES?: string;
  /** Frames a subscriber may fall behind before it is dropped (default 1000). */
  SSE_MAX_PENDING_FRAMES?: string;
}
