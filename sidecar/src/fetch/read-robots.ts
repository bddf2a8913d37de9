import { ok, type ConnectionPool, type RobotsRecord } from "@edge-web/shared";
import type { DispatcherSource, EgressResult, HostResolver, NetworkPolicy } from "./egress-types.ts";
import { safeFetch } from "./safe-fetch.ts";

/** RFC 9309 §2.5: a crawler must read at least 500 KiB; what lies beyond is not read. */
export const ROBOTS_MAX_BYTES = 500 * 1024;

export interface RobotsRead {
  origin: string;
  policy: NetworkPolicy;
  pool: ConnectionPool;
  timeoutMs: number;
  /** The request's own deadline left this read little time: running out of it says nothing of the origin. */
  cutByDeadline: boolean;
  signal?: AbortSignal;
}

/**
 * An origin's /robots.txt, through the same network policy as its pages, its redirects (at most 5)
 * vetted hop by hop. An origin that cannot be reached at all (its name, its connection) fails as
 * its pages would: that is what the caller needs to hear, not that robots.txt disallows them.
 */
export async function readRobots(read: RobotsRead, deps: { resolver: HostResolver; dispatchers: DispatcherSource; userAgent: string }): Promise<EgressResult<RobotsRecord>> {
  const url = `${read.origin}/robots.txt`;
  const answer = await safeFetch(
    { url, headers: { accept: "text/plain" }, policy: read.policy, pool: read.pool, timeoutMs: read.timeoutMs, maxResponseBytes: ROBOTS_MAX_BYTES, ...(read.signal && { signal: read.signal }) },
    deps,
  );
  if (!answer.ok) {
    // More than 5 redirects or a redirect without a usable target: no robots.txt to be had (§2.3.1.2).
    // A redirect this request's policy refuses (answered as "blocked") is the same for this request
    // alone: another's policy may reach the rules, so that answer is the guard's, never kept.
    const { code } = answer.error;
    if (code === "redirect") return ok({ kind: "allow-all", url });
    if (code === "blocked" || code === "dns" || code === "network" || code === "aborted" || code === "config" || code === "invalid-url") return answer;
    if (code === "timeout" && read.cutByDeadline) return answer;
    // An origin that answers nothing in time is unreachable (§2.3.1.4).
    return ok({ kind: "disallow-all", url, why: `could not be read (${answer.error.message})` });
  }
  const { status, bytes } = answer.value;
  if (status >= 200 && status <= 299) return ok({ kind: "rules", url, body: new TextDecoder().decode(bytes) });
  if (status >= 500) return ok({ kind: "disallow-all", url, why: `answered HTTP ${status}` });
  return ok({ kind: "allow-all", url });
}
