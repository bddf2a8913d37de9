import { fail, failWith, ok, type SearchOutcome } from "@edge-web/shared";
import type { EgressFailure } from "../fetch/egress-types.ts";
import { safeFetch } from "../fetch/safe-fetch.ts";
import { linkSignals } from "../link-signals.ts";
import type { ProviderId, SearchContext } from "./provider.ts";

export interface ProviderRequest {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /** What the caller should check when the provider answers 401 or 403. */
  refusedHint(status: number): string;
}

export interface ProviderResponse {
  status: number;
  text: string;
}

/**
 * Sends one provider request under the sidecar's outbound limit and answers its 2xx body as text;
 * everything else becomes a search error. Messages name the provider and never echo URLs, headers
 * or bodies, which can carry keys.
 */
export async function requestProvider(
  provider: ProviderId,
  req: ProviderRequest,
  ctx: SearchContext,
  signal?: AbortSignal,
): Promise<SearchOutcome<ProviderResponse>> {
  const { label } = provider;
  const { deps, deadline, clock } = ctx;
  const stop = linkSignals([signal, deadline.signal]);
  const slot = await deps.limiter.run(
    URL.parse(req.url)?.hostname ?? "",
    // The deadline bounds the wait; once running, the request's own timeout (within it) applies.
    () => {
      clock?.lap("queue");
      return safeFetch(
        {
          url: req.url,
          ...(req.method && { method: req.method }),
          ...(req.headers && { headers: req.headers }),
          ...(req.body !== undefined && { body: req.body }),
          policy: ctx.policy,
          timeoutMs: Math.max(1, Math.min(ctx.timeoutMs, deadline.remainingMs())),
          maxResponseBytes: ctx.maxResponseBytes,
          ...(ctx.pool && { pool: ctx.pool }),
          ...(clock && { clock }),
          ...(signal && { signal }),
        },
        { resolver: deps.resolver, dispatchers: deps.dispatchers, userAgent: deps.userAgent },
      );
    },
    { signal: stop.signal },
  ).finally(stop.unlink);
  if (!slot.ok) {
    if (slot.error.code === "queue-full") {
      return failWith("WEB_SEARCH_FAILED", "The search service is at its concurrency limit and its queue is full; retry shortly.", { fault: "unavailable" });
    }
    if (deadline.signal.aborted) {
      return fail(
        "WEB_SEARCH_TIMEOUT",
        `The search with ${label} waited ${deadline.elapsedMs()} ms in the search service's queue and could not start within its ${deadline.budgetMs} ms deadline (web.timeoutMs); retry later or raise web.timeoutMs.`,
      );
    }
    return fail("WEB_SEARCH_TIMEOUT", `The search with ${label} was cancelled before it started.`);
  }
  if (!slot.value.ok) return egressError(provider, slot.value.error, Math.min(ctx.timeoutMs, deadline.budgetMs));
  const { status, headers, bytes, truncated } = slot.value.value;
  if (status < 200 || status > 299) return statusError(provider, status, headers["retry-after"], req);
  // A cut body would parse as garbage or silently lose results.
  if (truncated) {
    return fail(
      "WEB_SEARCH_FAILED",
      `${label} sent a response over web.maxResponseBytes (${ctx.maxResponseBytes} bytes); raise web.maxResponseBytes or ask for fewer results.`,
    );
  }
  return ok({ status, text: new TextDecoder().decode(bytes) });
}

function statusError(provider: ProviderId, status: number, retryAfter: string | undefined, req: ProviderRequest): SearchOutcome<never> {
  const { name, label } = provider;
  if (status === 401 || status === 403) {
    return failWith("PROVIDER_AUTH_FAILED", `${label} refused the request (HTTP ${status}): ${req.refusedHint(status)}`, { fault: "upstream", upstreamStatus: status });
  }
  if (status === 429) {
    const when = retryAfter ? `retry after ${retryAfter} (its Retry-After)` : "retry later";
    const limited = fail("PROVIDER_RATE_LIMITED", `${label} is rate limiting this service (HTTP 429); ${when}, or choose another provider.`);
    return retryAfter ? { ...limited, retryAfter } : limited;
  }
  if (status >= 500) {
    return failWith("PROVIDER_UNAVAILABLE", `${label} is unavailable (HTTP ${status}); retry later or choose another provider.`, { fault: "upstream", upstreamStatus: status });
  }
  return failWith("WEB_SEARCH_FAILED", `${label} answered HTTP ${status}; check the query and that web.${name}.baseUrl is its search endpoint.`, {
    fault: "upstream",
    upstreamStatus: status,
  });
}

function egressError(provider: ProviderId, failure: EgressFailure, timeoutMs: number): SearchOutcome<never> {
  const { name, label } = provider;
  switch (failure.code) {
    case "timeout":
      return fail("WEB_SEARCH_TIMEOUT", `${label} did not answer within ${timeoutMs} ms (web.timeoutMs); retry, raise web.timeoutMs or choose another provider.`);
    case "aborted":
      return fail("WEB_SEARCH_TIMEOUT", `The search with ${label} was cancelled.`);
    case "invalid-url":
    case "config":
      return fail("INVALID_INPUT", `${label} cannot be asked: ${failure.message} Check web.${name}.baseUrl.`);
    case "blocked":
    // Providers are asked without a robots.txt guard (they are APIs the operator chose); the kind is answered all the same.
    case "robots":
      return failWith("NETWORK_ERROR", `${label} may not be asked: ${failure.message} Check web.${name}.baseUrl.`, { fault: "policy" });
    case "network":
    case "dns":
    case "redirect":
      return failWith("NETWORK_ERROR", `${label} could not be reached: ${failure.message} Check web.${name}.baseUrl, or retry.`, { fault: "upstream" });
  }
}
