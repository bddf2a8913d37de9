import { fail, type Deadline, type FetchOptions } from "@edge-web/shared";
import type { EgressResult, FetchContentDeps, NetworkPolicy } from "./egress-types.ts";
import { withContactUrl } from "../user-agent.ts";
import { readRobots } from "./read-robots.ts";
import { createRobotsCache, type RobotsCache } from "./robots-cache.ts";
import type { RobotsExchange } from "./robots-exchange.ts";

/** Whether a URL may be fetched under its origin's robots.txt; a refusal (kind "robots") names the rule. */
export type RobotsGuard = (url: URL) => Promise<EgressResult<void>>;

/**
 * The guard of one request (its policy, its deadline), or none when the operator set web.robots
 * "ignore". robots.txt gets at most half the time left, so the page keeps the rest; the process's
 * cache (deps.robots) shares what was read between requests, and a request without one reads afresh.
 * The worker's record of an origin (`exchange.given`) comes first; what is read goes to `exchange.read`.
 */
export function robotsGuard(options: FetchOptions, deps: FetchContentDeps, deadline: Deadline, exchange: RobotsExchange, signal?: AbortSignal): RobotsGuard | undefined {
  if (options.robots === "ignore") return undefined;
  const cache: RobotsCache = deps.robots ?? createRobotsCache();
  const { allowPrivateNetwork, allowHosts, deniedDomains, allowedDomains } = options;
  const policy: NetworkPolicy = { allowPrivateNetwork, allowHosts, deniedDomains, allowedDomains };
  const userAgent = withContactUrl(deps.userAgent, options.userAgentUrl);
  return async (url) => {
    const check = await cache.check(url.origin, exchange.given, async () => {
      const remainingMs = deadline.remainingMs();
      const timeoutMs = Math.max(1, Math.floor(Math.min(options.timeoutMs, remainingMs) / 2));
      // Queues ate more than half the call's time: a timeout then is ours, not the origin's silence.
      const cutByDeadline = remainingMs < options.timeoutMs / 2;
      const read = await readRobots({ origin: url.origin, policy, pool: options.connectionPool, timeoutMs, cutByDeadline, ...(signal && { signal }) }, { ...deps, userAgent });
      // A read cut short by its caller says nothing of the origin.
      return signal?.aborted ? fail("aborted", `Reading ${url.origin}/robots.txt was aborted.`) : read;
    });
    // robots.txt redirects where this request's policy may not go: none to be had for it (RFC 9309 §2.3.1.2).
    if (!check.ok) return check.error.code === "blocked" ? { ok: true, value: undefined } : check;
    if (check.value.read) exchange.read.push(check.value.read);
    const verdict = check.value.check(url.href);
    if (verdict.allowed) {
      if (verdict.crawlDelayS === undefined) delete exchange.crawlDelayMs;
      else exchange.crawlDelayMs = Math.round(verdict.crawlDelayS * 1_000);
      return { ok: true, value: undefined };
    }
    return fail("robots", `${url.href} was not fetched: ${verdict.reason}. This service respects robots.txt (web.robots); read the page elsewhere or ask the site's owner.`);
  };
}
