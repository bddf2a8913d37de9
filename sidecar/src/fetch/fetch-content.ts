import { MAX_PAGE_LINKS, pageLinks } from "../extract/page-links.ts";
import {
  createStepClock,
  wantsTimings,
  deadlineIn,
  displayUrl,
  fail,
  failWith,
  fetchBudgetMs,
  mediaType,
  ok,
  type ExtractedContent,
  type FetchOptions,
  type RenderCounts,
  type RenderMode,
  type Result,
  type RobotsEntry,
  type StepTimings,
  type PageCaching,
  type Validators,
} from "@edge-web/shared";
import { detectBlock } from "../block/detect-block.ts";
import { pageAnswer } from "../block/page-answer.ts";
import { decodeText } from "../extract/decode-text.ts";
import { detectContentType } from "../extract/detect-type.ts";
import { extractContent } from "../extract/extract-content.ts";
import { withContactUrl } from "../user-agent.ts";
import { blockedFailure } from "./blocked-failure.ts";
import type { FetchContentDeps, NetworkPolicy } from "./egress-types.ts";
import { fetchFailure } from "./fetch-failure.ts";
import { fetchResource } from "./fetch-resource.ts";
import { classifyIp } from "./ip-classifier.ts";
import { readViaReader, wantsReader } from "./jina-fallback.ts";
import { pageCaching } from "./page-caching.ts";
import { parseUrl } from "./parse-url.ts";
import { renderWhenWanted } from "./render-when-wanted.ts";
import { robotsExchange, robotsReport, type RobotsExchange } from "./robots-exchange.ts";
import { robotsGuard } from "./robots-guard.ts";
import type { RenderingDeps } from "./renderer.ts";
import { truncateContent } from "./truncate-content.ts";

export interface FetchContentRequest {
  url: string;
  preferReader: boolean;
  /** Whether the page's scripts run in the browser first (default "auto"). */
  render?: RenderMode;
  waitForSelector?: string;
  /** Read only what these CSS selectors match, instead of the main content (HTML pages). */
  includeSelectors?: string[];
  /** Remove what these CSS selectors match before reading (HTML pages). */
  excludeSelectors?: string[];
  /** A crawl's page: the answer lists the page's links. */
  links?: boolean;
  /** A cached copy's validators: the fetch is conditional, and a 304 answers `notModified`. */
  revalidate?: Validators;
  options: FetchOptions;
  /** Milliseconds the whole request may take, queues included; default web.timeoutMs (+ web.jinaTimeoutMs). */
  budgetMs?: number;
  /** The caller's session (an opaque key), so render slots are shared fairly between sessions. */
  sessionKey?: string;
  /** The worker's record of the URL's origin's robots.txt, used while fresh. */
  robotsRecord?: RobotsEntry;
}

/** What every answer may carry besides: per-step timings on request, and the robots.txt records read for it. */
type Reported = { timings?: StepTimings; robotsRead?: RobotsEntry[] };
/** The page with the body bytes read for it, what the origin said about keeping it and what its render did (for statistics), or a failure. */
export type FetchContentAnswer = (Result<ExtractedContent> & PageCounts) & Reported;
/** A conditional request's answer when the origin said the caller's copy is current (304). */
export type NotModifiedAnswer = NotModified & Reported;

type PipelineAnswer = (Result<ExtractedContent> & PageCounts) | NotModified;
type PageCounts = { bytes?: number; caching?: PageCaching; render?: RenderCounts };
type NotModified = { ok: true; notModified: true; caching: PageCaching };

/** Markdown is asked for below HTML: a site that serves it to agents answers it, a site that negotiates properly still sends its page. */
const ACCEPT = "text/html,application/xhtml+xml,text/markdown;q=0.9,application/xml;q=0.9,text/plain;q=0.8,*/*;q=0.5";
/** What metadata.source says of a page the origin itself answered as Markdown (used as served, nothing converted). */
const ORIGIN_MARKDOWN = "origin-markdown";

/**
 * The fetch pipeline: vet → fetch (redirects re-vetted) → detect → extract → bot check? → render in
 * the browser (when wanted, or to get past a bot check; its every request under the same policy) →
 * reader fallback → still a bot check? → truncate. One deadline covers all of it, the wait for a free slot included.
 * Only a request with a copy's validators (`revalidate`) may be answered `notModified`.
 */
export async function fetchContent(req: FetchContentRequest & { revalidate?: undefined }, deps: FetchContentDeps & RenderingDeps, signal?: AbortSignal): Promise<FetchContentAnswer>;
export async function fetchContent(req: FetchContentRequest, deps: FetchContentDeps & RenderingDeps, signal?: AbortSignal): Promise<FetchContentAnswer | NotModifiedAnswer>;
export async function fetchContent(req: FetchContentRequest, deps: FetchContentDeps & RenderingDeps, signal?: AbortSignal): Promise<FetchContentAnswer | NotModifiedAnswer> {
  const clock = createStepClock();
  const robots = robotsExchange(req.robotsRecord);
  const answer = await runPipeline(req, deps, clock, robots, signal);
  return { ...answer, ...robotsReport(robots), ...(wantsTimings(req.options.debug) && { timings: clock.timings() }) };
}

async function runPipeline(
  req: FetchContentRequest,
  deps: FetchContentDeps & RenderingDeps,
  clock: ReturnType<typeof createStepClock>,
  robots: RobotsExchange,
  signal?: AbortSignal,
): Promise<PipelineAnswer> {
  const { options } = req;
  const deadline = deadlineIn(req.budgetMs ?? fetchBudgetMs(options));
  const parsed = parseUrl(req.url);
  if (!parsed.ok) return fail("CONTENT_FETCH_INVALID_URL", parsed.error.message);
  const url = parsed.value;
  const shown = displayUrl(url);
  // The page and every hop to it, and the document a renderer loads, are checked against their origin's robots.txt.
  const guard = robotsGuard(options, deps, deadline, robots, signal);
  const fetched = await fetchResource(
    { url, accept: ACCEPT, maxResponseBytes: options.maxResponseBytes, deadline, clock, ...(req.revalidate && { validators: req.revalidate }), ...(guard && { guard }), ...(signal && { signal }) },
    options,
    deps,
  );
  if (!fetched.ok) return fetchFailure(fetched.error, shown, options, { budgetMs: deadline.budgetMs, queuedMs: Math.round(clock.timings().queue ?? 0) });
  const response = fetched.value;
  // Extraction is CPU the event loop owes every other request: a page whose deadline has passed, or whose caller left, is not extracted.
  if (signal?.aborted || deadline.remainingMs() === 0) {
    return fail("CONTENT_FETCH_TIMEOUT", `Fetching ${shown} used up its ${deadline.budgetMs} ms deadline (web.timeoutMs) before the page could be extracted; retry or raise web.timeoutMs.`);
  }

  const { status } = response;
  if (status === 304 && req.revalidate) return { ok: true, notModified: true, caching: pageCaching(response.headers, true) };
  if (status === 404 || status === 410) {
    return failWith("CONTENT_FETCH_FAILED", `${shown} answered HTTP ${status}: there is no page at this URL.`, { fault: "not-found", upstreamStatus: status });
  }
  const answered = status >= 200 && status <= 299;
  const refused = () => failWith("CONTENT_FETCH_FAILED", `${shown} answered HTTP ${status}; the page could not be fetched.`, { fault: "upstream", upstreamStatus: status });
  const type = await detectContentType({ contentType: response.headers["content-type"], url: response.url, bytes: response.bytes });
  if (!type.ok) return answered ? failWith("CONTENT_FETCH_FAILED", type.message, { fault: "unsupported-type" }) : refused();

  const { text } = decodeText(response.bytes, response.headers["content-type"], type.kind);
  // The caller's selectors change what the HTML is read as, served or rendered, and keep the reader service (which cannot apply them) out.
  const selectors = req.includeSelectors?.length || req.excludeSelectors?.length ? { include: req.includeSelectors ?? [], exclude: req.excludeSelectors ?? [] } : undefined;
  let extracted = extractContent(type.kind, { text, url: response.url, mime: type.mime, ...(type.language && { language: type.language }), ...(selectors && { selectors }) });
  let pageUrl = response.url;
  clock.lap("extract");
  // A bot check is told by its status, headers and shape, so an answer of any status is read before its status decides.
  let block = detectBlock(pageAnswer(status, response.headers, text, extracted));
  if (!answered && !block) return refused();
  const rendered =
    type.kind === "html"
      ? await renderWhenWanted(
          {
            mode: req.render ?? "auto",
            extracted,
            challenged: block !== undefined,
            url: response.url,
            options,
            deadline,
            userAgent: withContactUrl(deps.userAgent, options.userAgentUrl),
            ...(req.waitForSelector && { waitForSelector: req.waitForSelector }),
            ...(selectors && { selectors }),
            ...(req.sessionKey && { sessionKey: req.sessionKey }),
            ...(guard && { guard }),
          },
          deps.renderer,
          signal,
        )
      : ok(undefined);
  if (!rendered.ok) return rendered;
  if (rendered.value) {
    const { html, status: renderedStatus } = rendered.value;
    ({ extracted, url: pageUrl } = rendered.value);
    clock.lap("render");
    // The browser got past a check only onto a document answered 2xx that is no check itself.
    const passed = renderedStatus >= 200 && renderedStatus <= 299;
    block = detectBlock(pageAnswer(renderedStatus, {}, html, extracted)) ?? (passed ? undefined : block);
  }

  let title = extracted.title;
  let content = extracted.content;
  // Pages on private addresses are never sent to the reader service.
  if (type.kind === "html" && classifyIp(response.remoteAddress).isGlobal && (block || (!selectors && wantsReader(extracted, options, req.preferReader)))) {
    // The reader service is operator configuration: the domain lists govern the pages agents ask for, not it.
    const readerPolicy: NetworkPolicy = { allowPrivateNetwork: options.allowPrivateNetwork, allowHosts: options.allowHosts };
    const readerOptions = { ...options, jinaTimeoutMs: Math.max(1, Math.min(options.jinaTimeoutMs, deadline.remainingMs())) };
    const reader = await readViaReader(response.url, readerOptions, readerPolicy, deps, signal);
    clock.lap("reader");
    if (!reader.ok) return block ? blockedFailure(shown, status, block.reason) : reader;
    // The reader's answer replaces the page unless it read a bot check too.
    if (reader.value && !detectBlock(pageAnswer(200, {}, reader.value.content, reader.value))) {
      content = reader.value.content;
      title = reader.value.title ?? title;
      block = undefined;
    }
  }
  if (block) return blockedFailure(shown, status, block.reason);

  const cut = truncateContent(content, options.maxContentChars);
  // A crawl's page: its links as the browser or the server gave the document, every one, boilerplate's too.
  const links = req.links && type.kind === "html" ? pageLinks(rendered.value?.html ?? text, new URL(pageUrl), MAX_PAGE_LINKS).map((link) => link.url) : undefined;
  const servedMarkdown = mediaType(response.headers["content-type"]) === "text/markdown";
  const metadata = {
    ...extracted.metadata,
    // The result is the URL asked for; where the page ended goes here, a URL the policy let it reach (every redirect was vetted, and a render that ends anywhere else has failed).
    ...(pageUrl !== shown && { finalUrl: pageUrl }),
    ...(rendered.value && { rendered: true }),
    ...(servedMarkdown && { source: ORIGIN_MARKDOWN }),
  };
  const page = ok({
    url: shown,
    ...(title && { title }),
    content: cut.text,
    truncated: cut.truncated || response.truncated,
    contentType: type.mime,
    ...(extracted.parseWarning && { parseWarning: extracted.parseWarning }),
    ...(Object.keys(metadata).length > 0 && { metadata }),
    ...(links && { links }),
    ...(links && robots.crawlDelayMs !== undefined && { crawlDelayMs: robots.crawlDelayMs }),
  });
  // The validators describe the bytes served: they hold for this content only when nothing replaced what those bytes extract to.
  const caching = pageCaching(response.headers, !rendered.value && content === extracted.content);
  return { ...page, bytes: response.bytes.length, caching, ...(rendered.value && { render: rendered.value.render }) };
}
