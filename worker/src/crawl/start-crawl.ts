import { deadlineIn, fail, failWith, ok, type CrawlParams, type CrawlStatus, type Failure, type Result, type WebConfig } from "@edge-web/shared";
import type { Env } from "../env.ts";
import { emptyCounts, type CrawlJob } from "./crawl-frontier.ts";
import { crawlQuota } from "./crawl-quota.ts";
import { normalizeUrl } from "./crawl-scope.ts";
import { crawlStub } from "./crawl-stub.ts";
import { compilePathGlobs } from "./path-globs.ts";
import { vetPageUrl } from "./vet-hosts.ts";

/** The pages a crawl fetches when it does not say (at most web.crawl.maxPages). */
export const DEFAULT_CRAWL_LIMIT = 50;

/** Who starts a crawl, in which session. */
export interface CrawlStarter {
  sessionId: string;
  owner: string;
}

/** A refusal, with the headers its answer carries (Retry-After for CRAWL_LIMIT_REACHED). */
export type StartFailure = Failure & { headers?: Record<string, string> };

/** A crawl's start URL, normalised, if the network policy lets a fetch reach it; else the failure fetch_content would answer. */
async function vetStart(env: Env, raw: string, config: WebConfig): Promise<Result<string>> {
  const url = normalizeUrl(raw.trim());
  if (!url) return fail("CONTENT_FETCH_INVALID_URL", "url: pass an absolute http:// or https:// URL, for example https://example.com/docs.", ["url"]);
  const vetted = await vetPageUrl(env, url.href, config, deadlineIn(config.timeoutMs));
  if (vetted.ok) return ok(url.href);
  const { code, message } = vetted.error;
  if (code === "SIDECAR_UNAVAILABLE") return fail(code, message);
  if (code === "invalid-url") return fail("CONTENT_FETCH_INVALID_URL", message, ["url"]);
  return failWith("CONTENT_FETCH_FAILED", message, { fault: code === "blocked" || code === "config" ? "policy" : "upstream" });
}

/**
 * A crawl checked and started: its limit within web.crawl.maxPages, its globs compiled, its start URL
 * through the network policy (DNS answers too) — each refused at once as fetch_content would — and a
 * place among the crawls its owner and session run at once (web.crawl.maxConcurrentCrawls). Then its
 * object holds it and hands its pages to the crawl queue.
 */
export async function startCrawl(env: Env, starter: CrawlStarter, params: CrawlParams, config: WebConfig): Promise<Result<{ crawlId: string; status: CrawlStatus }> | StartFailure> {
  const bounds = config.crawl;
  const limit = params.limit ?? Math.min(DEFAULT_CRAWL_LIMIT, bounds.maxPages);
  if (limit > bounds.maxPages) return fail("INVALID_INPUT", `limit: at most ${bounds.maxPages} pages (web.crawl.maxPages).`, ["limit"]);
  for (const field of ["includePaths", "excludePaths"] as const) {
    const globs = compilePathGlobs(params[field], field);
    if (!globs.ok) return globs;
  }
  const start = await vetStart(env, params.url, config);
  if (!start.ok) return start;
  const now = Date.now();
  const crawlId = crypto.randomUUID();
  const job: CrawlJob = {
    crawlId,
    ...starter,
    url: start.value,
    params,
    bounds: {
      limit,
      maxDepth: params.maxDepth ?? 2,
      hostConcurrency: bounds.hostConcurrency,
      hostDelayMs: bounds.hostDelayMs,
      maxBytes: bounds.maxBytes,
      maxQueryVariants: bounds.maxQueryVariants,
      endsAt: now + bounds.maxDurationMs,
      // A page's fetch is bounded by web.timeoutMs (and the reader's time): twice that, and a margin, before it is handed out again.
      leaseMs: 2 * (config.timeoutMs + config.jinaTimeoutMs) + 10_000,
    },
    status: "running",
    createdAt: now,
    seedFromSitemaps: (params.sources ?? "all") !== "links",
    counts: emptyCounts(),
  };
  const quota = await crawlQuota(env).acquire(job, bounds.maxConcurrentCrawls);
  if (!quota.granted) {
    const seconds = Math.max(1, Math.ceil((quota.freeAt - Date.now()) / 1_000));
    const whose = quota.scope === "session" ? "This session" : "This API token";
    const refusal = fail("CRAWL_LIMIT_REACHED", `${whose} already runs ${bounds.maxConcurrentCrawls} crawls (web.crawl.maxConcurrentCrawls); wait for one to end or cancel one (DELETE …/crawls/:crawlId).`);
    return { ...refusal, headers: { "retry-after": String(seconds) } };
  }
  const state = await crawlStub(env, crawlId)!.start(job);
  return ok({ crawlId, status: state.status });
}
