import { fail, type Deadline, type FetchOptions, type Result, type StepClock, type Validators } from "@edge-web/shared";
import { linkSignals } from "../link-signals.ts";
import { compileAllowList } from "./allow-list.ts";
import { conditionalHeaders } from "./conditional-headers.ts";
import type { EgressFailureKind, FetchedResponse, NetworkPolicy } from "./egress-types.ts";
import type { FetchContentDeps } from "./egress-types.ts";
import type { RobotsGuard } from "./robots-guard.ts";
import { safeFetch } from "./safe-fetch.ts";
import { withContactUrl } from "../user-agent.ts";

/** Why no response came: an egress failure, or the fetch service's queue (full, no slot before the deadline, cancelled while waiting). */
export type ResourceFailureKind = EgressFailureKind | "busy" | "queue-timeout" | "cancelled";

export interface ResourceRequest {
  url: URL;
  accept: string;
  /** A copy's validators: the request asks for the page only if it changed since (a 304 otherwise). */
  validators?: Validators;
  /** The most decoded body bytes read; a longer body comes back cut, with `truncated`. */
  maxResponseBytes: number;
  deadline: Deadline;
  clock?: StepClock;
  signal?: AbortSignal;
  /** Each hop's robots.txt check (robotsGuard), none when robots.txt is ignored. */
  guard?: RobotsGuard;
}

/**
 * One GET through the whole egress path — the request's network policy, the per-host queue, DNS
 * checks, the pinned connection, re-vetted redirects — within the deadline.
 */
export async function fetchResource(req: ResourceRequest, options: FetchOptions, deps: FetchContentDeps): Promise<Result<FetchedResponse, ResourceFailureKind>> {
  const allow = compileAllowList(options.allowHosts);
  if (!allow.ok) return allow;
  const { allowPrivateNetwork, allowHosts, deniedDomains, allowedDomains } = options;
  const policy: NetworkPolicy = { allowPrivateNetwork, allowHosts, deniedDomains, allowedDomains };
  const { deadline, signal } = req;
  const stop = linkSignals([signal, deadline.signal]);
  const slot = await deps.limiter.run(
    req.url.hostname,
    // The deadline bounds the wait; once running, the fetch's own timeout (within it) applies.
    () => {
      req.clock?.lap("queue");
      return safeFetch(
        {
          url: req.url.href,
          headers: { accept: req.accept, ...conditionalHeaders(req.validators) },
          policy,
          timeoutMs: Math.max(1, Math.min(options.timeoutMs, deadline.remainingMs())),
          maxResponseBytes: req.maxResponseBytes,
          pool: options.connectionPool,
          ...(req.guard && { guard: req.guard }),
          ...(req.clock && { clock: req.clock }),
          ...(signal && { signal }),
        },
        { resolver: deps.resolver, dispatchers: deps.dispatchers, userAgent: withContactUrl(deps.userAgent, options.userAgentUrl), allow: allow.value },
      );
    },
    { signal: stop.signal },
  ).finally(stop.unlink);
  if (!slot.ok) {
    if (slot.error.code === "queue-full") return fail("busy", "The fetch service is at its concurrency limit and its queue is full; retry shortly.");
    if (deadline.signal.aborted) return fail("queue-timeout", `waited ${deadline.elapsedMs()} ms in the fetch service's queue (it limits requests per host)`);
    return fail("cancelled", "was cancelled before it started");
  }
  return slot.value;
}
