import { fail, ok, type CodedError, type HostLimiter, type ExtractedContent, type FetchOptions, type Result } from "@edge-web/shared";
import { decodeText } from "../extract/decode-text.ts";
import { detectContentType } from "../extract/detect-type.ts";
import { extractContent } from "../extract/extract-content.ts";
import { compileAllowList } from "./allow-list.ts";
import type { DispatcherSource, EgressFailure, HostResolver, NetworkPolicy } from "./egress-types.ts";
import { classifyIp } from "./ip-classifier.ts";
import { readViaReader, wantsReader } from "./jina-fallback.ts";
import { parseUrl } from "./parse-url.ts";
import { safeFetch } from "./safe-fetch.ts";
import { truncateContent } from "./truncate-content.ts";

export interface FetchContentDeps {
  resolver: HostResolver;
  dispatchers: DispatcherSource;
  limiter: HostLimiter;
  userAgent: string;
  /** Optional key for the reader service (sent as a bearer token, never logged). */
  readerApiKey?: string;
}

export interface FetchContentRequest {
  url: string;
  preferReader: boolean;
  options: FetchOptions;
}

const ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,text/plain;q=0.8,*/*;q=0.5";

/** The fetch pipeline: vet → fetch (redirects re-vetted) → detect → extract → reader fallback → truncate. */
export async function fetchContent(
  req: FetchContentRequest,
  deps: FetchContentDeps,
  signal?: AbortSignal,
): Promise<Result<ExtractedContent> & { bytes?: number }> {
  const parsed = parseUrl(req.url);
  if (!parsed.ok) return fail("CONTENT_FETCH_INVALID_URL", parsed.failure.message);
  const url = parsed.value;
  const allow = compileAllowList(req.options.allowHosts);
  if (!allow.ok) return fail("INVALID_INPUT", `web.allowHosts has entries that are not a hostname, IP or CIDR: ${allow.invalid.join(", ")}.`);
  const { allowPrivateNetwork, allowHosts, deniedDomains, allowedDomains } = req.options;
  const policy: NetworkPolicy = { allowPrivateNetwork, allowHosts, deniedDomains, allowedDomains };

  const slot = await deps.limiter.run(
    url.hostname,
    (taskSignal) =>
      safeFetch(
        {
          url: url.href,
          headers: { accept: ACCEPT },
          policy,
          timeoutMs: req.options.timeoutMs,
          maxResponseBytes: req.options.maxResponseBytes,
          ...(taskSignal && { signal: taskSignal }),
        },
        { resolver: deps.resolver, dispatchers: deps.dispatchers, userAgent: deps.userAgent, allow: allow.value },
      ),
    signal,
  );
  if (!slot.ok) {
    return slot.reason === "queue-full"
      ? fail("CONTENT_FETCH_FAILED", "The fetch service is at its concurrency limit and its queue is full; retry shortly.")
      : fail("CONTENT_FETCH_TIMEOUT", `Fetching ${displayUrl(url)} was aborted before it started.`);
  }
  if (!slot.value.ok) return fail(...egressError(slot.value.failure, displayUrl(url), req.options));
  const response = slot.value.value;

  if (response.status < 200 || response.status > 299) {
    return fail("CONTENT_FETCH_FAILED", `${displayUrl(url)} answered HTTP ${response.status}; the page could not be fetched.`);
  }
  const type = detectContentType({ contentType: response.headers["content-type"], url: response.url, bytes: response.bytes });
  if (!type.ok) return fail("CONTENT_FETCH_FAILED", type.message);

  const { text } = decodeText(response.bytes, response.headers["content-type"], type.kind);
  const extracted = extractContent(type.kind, { text, url: response.url, mime: type.mime, ...(type.language && { language: type.language }) });

  let title = extracted.title;
  let content = extracted.content;
  // Pages on private addresses are never sent to the reader service.
  if (type.kind === "html" && classifyIp(response.remoteAddress).isGlobal && wantsReader(extracted, req.options, req.preferReader)) {
    // The reader service is operator configuration: the domain lists govern the pages agents ask for, not it.
    const readerPolicy: NetworkPolicy = { allowPrivateNetwork, allowHosts };
    const reader = await readViaReader(response.url, req.options, readerPolicy, deps, signal);
    if (!reader.ok) return reader;
    if (reader.value) {
      content = reader.value.content;
      title = reader.value.title ?? title;
    }
  }

  const cut = truncateContent(content, req.options.maxContentChars);
  const metadata = { ...extracted.metadata, ...(response.url !== url.href && { requestedUrl: url.href }) };
  // `bytes` (the body bytes read) rides beside the result for the session's statistics.
  const page = ok({
    url: response.url,
    ...(title && { title }),
    content: cut.text,
    truncated: cut.truncated || response.truncated,
    contentType: type.mime,
    ...(extracted.parseWarning && { parseWarning: extracted.parseWarning }),
    ...(Object.keys(metadata).length > 0 && { metadata }),
  });
  return { ...page, bytes: response.bytes.length };
}

/** Egress failures in the fetch tool's codes. */
function egressError(failure: EgressFailure, shown: string, options: FetchOptions): [CodedError["code"], string] {
  switch (failure.kind) {
    case "invalid-url":
      return ["CONTENT_FETCH_INVALID_URL", failure.message];
    case "timeout":
      return ["CONTENT_FETCH_TIMEOUT", `Fetching ${shown} took longer than ${options.timeoutMs} ms (web.timeoutMs); retry or raise the limit.`];
    case "aborted":
      return ["CONTENT_FETCH_TIMEOUT", `Fetching ${shown} was aborted.`];
    case "config":
      return ["INVALID_INPUT", failure.message];
    default:
      return ["CONTENT_FETCH_FAILED", failure.message];
  }
}

/** A URL safe to show: no user name or password. */
function displayUrl(url: URL): string {
  if (!url.username && !url.password) return url.href;
  const shown = new URL(url.href);
  shown.username = "";
  shown.password = "";
  return shown.href;
}
