import type { ConnectionPool } from "@edge-web/shared";
import type { DispatcherSource, HostResolver, NetworkPolicy } from "./egress-types.ts";
import { safeFetch } from "./safe-fetch.ts";
import type { RobotsRecord } from "./robots-record.ts";

/** RFC 9309 §2.5: a crawler must read at least 500 KiB; what lies beyond is not read. */
export const ROBOTS_MAX_BYTES = 500 * 1024;

export interface RobotsRead {
  origin: string;
  policy: NetworkPolicy;
  pool: ConnectionPool;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** An origin's /robots.txt, through the same network policy as its pages, its redirects (at most 5) vetted hop by hop. */
export async function readRobots(read: RobotsRead, deps: { resolver: HostResolver; dispatchers: DispatcherSource; userAgent: string }): Promise<RobotsRecord> {
  const url = `${read.origin}/robots.txt`;
  const answer = await safeFetch(
    { url, headers: { accept: "text/plain" }, policy: read.policy, pool: read.pool, timeoutMs: read.timeoutMs, maxResponseBytes: ROBOTS_MAX_BYTES, ...(read.signal && { signal: read.signal }) },
    deps,
  );
  if (!answer.ok) {
    // More than 5 redirects, a redirect without a usable target, or one the policy refuses: no robots.txt to be had (§2.3.1.2).
    if (answer.error.code === "redirect" || answer.error.code === "blocked") return { kind: "allow-all", url };
    return { kind: "disallow-all", url, why: `could not be read (${answer.error.message})` };
  }
  const { status, bytes } = answer.value;
  if (status >= 200 && status <= 299) return { kind: "rules", url, body: new TextDecoder().decode(bytes) };
  if (status >= 500) return { kind: "disallow-all", url, why: `answered HTTP ${status}` };
  return { kind: "allow-all", url };
}
