import { createDispatcherPool } from "./fetch/pinned-dispatcher.ts";
import { createHostLimiter } from "@edge-web/shared";
import { createHostResolver } from "./fetch/resolve-host.ts";
import type { FetchContentDeps, ReaderKey } from "./fetch/egress-types.ts";
import { createRobotsCache } from "./fetch/robots-cache.ts";
import { USER_AGENT } from "./user-agent.ts";
import { createConvertPool, type ConvertPool, type ConvertPoolSettings } from "./convert/service/convert-pool.ts";
import { availableParallelism } from "node:os";
import { browserPathFrom, createRenderer, type RendererSettings } from "./render/create-renderer.ts";
import type { Renderer, RenderingDeps } from "./fetch/renderer.ts";
import { testTrustFromEnv } from "./render/test-trust-from-env.ts";

/** Everything the sidecar's operations use: the fetch pipeline's parts and the converter threads. */
export interface SidecarDeps extends FetchContentDeps, RenderingDeps {
  converter: ConvertPool;
}

export interface SidecarSettings {
  /** DNS servers ("127.0.0.1:5353"); empty uses the system resolver. */
  dnsServers: string[];
  maxConcurrent: number;
  maxPerHost: number;
  maxQueue: number;
  keepAliveTimeoutMs: number;
  reader?: ReaderKey;
  convert: ConvertPoolSettings;
  render: RendererSettings;
}

/** The reader service JINA_API_KEY is for, unless JINA_BASE_URL names another. */
const DEFAULT_READER_URL = "https://r.jina.ai/";

const int = (raw: string | undefined, fallback: number) => {
  const n = Number(raw);
  return Number.isInteger(n) && n > 0 ? n : fallback;
};

/** Sidecar-wide settings from its environment; they are the process's, not a session's. A test-only trust that is refused (main.ts will not start) is left out. */
export function settingsFromEnv(env: NodeJS.ProcessEnv): SidecarSettings {
  const trust = testTrustFromEnv(env);
  return {
    dnsServers: (env.SIDECAR_DNS_SERVERS ?? "").split(",").map((s) => s.trim()).filter(Boolean),
    maxConcurrent: int(env.SIDECAR_MAX_CONCURRENT, 64),
    maxPerHost: int(env.SIDECAR_MAX_PER_HOST, 10),
    maxQueue: int(env.SIDECAR_MAX_QUEUE, 256),
    keepAliveTimeoutMs: int(env.SIDECAR_KEEPALIVE_MS, 60_000),
    convert: {
      // One core stays with the event loop that serves fetches.
      threads: int(env.SIDECAR_CONVERT_THREADS, Math.max(1, Math.min(4, availableParallelism() - 1))),
      maxQueued: int(env.SIDECAR_CONVERT_QUEUE, 16),
      memoryMb: int(env.SIDECAR_CONVERT_MEMORY_MB, 512),
    },
    render: {
      browserPath: browserPathFrom(env),
      concurrency: int(env.SIDECAR_RENDER_CONCURRENCY, 2),
      maxQueue: int(env.SIDECAR_RENDER_QUEUE, 16),
      maxPages: int(env.SIDECAR_RENDER_MAX_PAGES, 100),
      maxRssBytes: int(env.SIDECAR_RENDER_MAX_RSS_MB, 1_536) * 1_048_576,
      ...(trust.ok && trust.value.length > 0 && { trustedTestSpki: trust.value }),
    },
    ...(env.JINA_API_KEY && { reader: { apiKey: env.JINA_API_KEY, origin: new URL(env.JINA_BASE_URL || DEFAULT_READER_URL).origin } }),
  };
}

export function createSidecarDeps(settings: SidecarSettings): SidecarDeps & { renderer: Renderer } {
  const resolver = createHostResolver(settings.dnsServers.length > 0 ? { servers: settings.dnsServers } : undefined);
  const dispatchers = createDispatcherPool({ maxSockets: settings.maxPerHost, keepAliveTimeoutMs: settings.keepAliveTimeoutMs });
  return {
    converter: createConvertPool(settings.convert),
    resolver,
    dispatchers,
    limiter: createHostLimiter({ maxConcurrent: settings.maxConcurrent, maxPerHost: settings.maxPerHost, maxQueue: settings.maxQueue }),
    renderer: createRenderer(settings.render, { resolver, dispatchers, userAgent: USER_AGENT }),
    userAgent: USER_AGENT,
    robots: createRobotsCache(),
    ...(settings.reader && { reader: settings.reader }),
  };
}
