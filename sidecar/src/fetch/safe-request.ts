import { errors, request } from "undici";
import { compileAllowList, type AllowList } from "./allow-list.ts";
import type { DispatcherSource, EgressResult, HostResolver, OpenedResponse, SafeRequest } from "./egress-types.ts";
import { fail } from "@edge-web/shared";
import { errorReason } from "../error-reason.ts";
import { flattenHeaders } from "./flatten-headers.ts";
import { parseUrl } from "./parse-url.ts";
import { vetDestination } from "./vet-destination.ts";

export interface SafeRequestDeps {
  resolver: HostResolver;
  dispatchers: DispatcherSource;
  userAgent: string;
  /** Precompiled req.policy.allowHosts; compiled per call when absent. */
  allow?: AllowList;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const TLS_ERROR = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH)/;
/** Redirect bodies up to this size are read so the connection can be reused; larger ones are dropped. */
const REDIRECT_DRAIN_BYTES = 65_536;

/** A short, secret-free reason for a failed exchange. */
function networkFailure(error: unknown, url: URL): EgressResult<never> {
  const { code } = (error ?? {}) as { code?: unknown };
  const text = typeof code === "string" ? code : "";
  const why =
    text === "ECONNREFUSED"
      ? "the connection was refused"
      : text === "ECONNRESET" || text === "UND_ERR_SOCKET"
        ? "the connection was closed unexpectedly"
        : TLS_ERROR.test(text)
          ? `the TLS handshake failed (${text})`
          : error instanceof errors.HTTPParserError
            ? "the server sent a malformed HTTP response"
            : errorReason(error);
  return fail("network", `The request to ${url.origin} failed: ${why}.`);
}

/** Parses a hop's URL and drops its userinfo: it is never sent, and the final URL is shown to callers. */
function hopUrl(raw: string): EgressResult<URL> {
  const parsed = parseUrl(raw);
  if (parsed.ok) {
    parsed.value.username = "";
    parsed.value.password = "";
  }
  return parsed;
}

async function follow(first: URL, req: SafeRequest, deps: SafeRequestDeps & { allow: AllowList }, signal?: AbortSignal): Promise<EgressResult<OpenedResponse>> {
  const maxRedirects = req.maxRedirects ?? 5;
  // Caller headers may carry credentials: they go only to the origin they were written for.
  const callerHeaders = Object.fromEntries(Object.entries(req.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
  let url = first;
  let method = req.method ?? "GET";
  let body = req.body;
  for (let redirects = 0; ; redirects++) {
    const vetted = await vetDestination(url, req.policy, deps.allow, deps.resolver, signal);
    req.clock?.lap("vet");
    if (!vetted.ok) return vetted;
    if (req.guard) {
      const allowed = await req.guard(url);
      req.clock?.lap("robots");
      if (!allowed.ok) return allowed;
    }
    const headers = {
      "user-agent": deps.userAgent,
      "accept-encoding": "gzip, deflate, br",
      ...(url.origin === first.origin ? callerHeaders : {}),
    };
    let response: Awaited<ReturnType<typeof request>>;
    try {
      const dispatcher = deps.dispatchers.dispatcherFor(url.origin, vetted.value, req.pool);
      response = await request(url, { dispatcher, method, headers, body, signal });
    } catch (error) {
      return networkFailure(error, url);
    } finally {
      req.clock?.lap("connect");
    }
    if (!REDIRECT_STATUSES.has(response.statusCode) || req.redirect === "manual") {
      const { statusCode: status, headers: responseHeaders, body: responseBody } = response;
      return { ok: true, value: { url: url.href, status, headers: responseHeaders, body: responseBody, redirects, remoteAddress: vetted.value.address } };
    }
    // A failed drain only costs this connection.
    await response.body.dump({ limit: REDIRECT_DRAIN_BYTES, ...(signal && { signal }) }).catch(() => {});
    const { location } = flattenHeaders(response.headers);
    if (!location) return fail("redirect", `${url.origin} answered ${response.statusCode} without a Location header; there is nothing to follow.`);
    if (redirects >= maxRedirects) return fail("redirect", `The request stopped after ${maxRedirects} redirects (last at ${url.origin}); the page may redirect in a loop.`);
    const next = hopUrl(URL.parse(location, url.href)?.href ?? "");
    if (!next.ok) return fail("redirect", `${url.origin} redirected to a URL that cannot be followed: ${next.error.message}`);
    if (response.statusCode === 303 || (method === "POST" && (response.statusCode === 301 || response.statusCode === 302))) {
      method = "GET";
      body = undefined;
    }
    url = next.value;
  }
}

/**
 * Sends one request under the network policy and answers its final response with the body unread;
 * never throws. Every hop is parsed, vetted and sent over a dispatcher pinned to the vetted address;
 * redirects are followed by hand so each one is vetted too. `signal` stops every step, the body's
 * reading included; when it has fired, a failure says only what broke, and the caller, who knows
 * which of its signals fired, says why.
 */
export async function safeRequest(req: SafeRequest, deps: SafeRequestDeps, signal?: AbortSignal): Promise<EgressResult<OpenedResponse>> {
  let allow = deps.allow;
  if (!allow) {
    const compiled = compileAllowList(req.policy.allowHosts);
    if (!compiled.ok) return compiled;
    allow = compiled.value;
  }
  const first = hopUrl(req.url);
  if (!first.ok) return first;
  try {
    return await follow(first.value, req, { ...deps, allow }, signal);
  } catch (error) {
    return networkFailure(error, first.value);
  }
}
