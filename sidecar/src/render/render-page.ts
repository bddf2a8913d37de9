import { fail, ok, type Failure, type Result } from "@edge-web/shared";
import type { Browser, BrowserContext } from "playwright-core";
import { errorReason } from "../error-reason.ts";
import { countReceivedBytes } from "./count-received-bytes.ts";
import type { EgressProxy } from "./egress-proxy.ts";
import { PROXIED_LOOPBACK } from "./proxied-loopback.ts";
import type { ProxySession } from "./proxy-session.ts";
import { FLATTEN_DOM_SOURCE } from "./flatten-dom.ts";
import type { RenderedPage, RenderFailureKind, RenderRequest } from "../fetch/renderer.ts";
import { QUIET_PROBE_SCRIPT, waitForSettled } from "./wait-for-settled.ts";
import { within } from "./within.ts";

/** Not text: never downloaded. */
const SKIPPED_TYPES = new Set(["image", "media", "font"]);
/** Kept back from the deadline for taking the DOM and extracting it. */
const SNAPSHOT_RESERVE_MS = 1_000;

type PageFailure = Failure<RenderFailureKind>;

/** A document the page's main frame received. */
interface PageDocument {
  url: string;
  status: number;
}

/**
 * Where the page ended, when an origin answered it under the policy: its last document came
 * through the proxy from an origin, and the address bar is still on that document's origin
 * (history.pushState moves only within it). Anywhere else the page has no page to take: an answer
 * the proxy gave itself (a refusal, an unreachable host), the browser's error page (a tunnel
 * refused or failed), about:blank.
 */
function endedOn(current: string, document: PageDocument | undefined, session: ProxySession): Result<{ url: string; status: number }, RenderFailureKind> {
  const own = document && session.ownAnswers.get(document.url);
  if (document && own === undefined && URL.parse(current)?.origin === URL.parse(document.url)?.origin) return ok({ url: current, status: document.status });
  const origin = URL.parse(document?.url ?? "")?.origin;
  if (own === 403) return fail("blocked", `The page moved on to ${origin}, which the render proxy refused (the network policy, or the page's caps); read it with render "never".`);
  if (own !== undefined) return fail("failed", `The page moved on to ${origin}, which could not be reached; read it with render "never".`);
  return fail("failed", `The page moved on to a page the browser could not load (a connection refused or failed, or no web page at all); read it with render "never".`);
}

/** The promise's outcome, or undefined once `halt` fires; the promise's own failure later is ignored. */
function unlessHalted<T>(promise: Promise<T>, halt: AbortSignal): Promise<T | undefined> {
  promise.catch(() => {});
  return new Promise<T | undefined>((resolve, reject) => {
    const halted = () => resolve(undefined);
    halt.addEventListener("abort", halted, { once: true });
    promise.then(resolve, reject).finally(() => halt.removeEventListener("abort", halted));
  });
}

/** A rendered page (or why not), and the closing of its context, which the answer does not wait for. */
export interface RenderOutcome {
  page: Result<RenderedPage, RenderFailureKind>;
  closed: Promise<void>;
}

/**
 * Renders one page in a fresh context (no cookies, storage, cache or service workers shared with
 * any other page), every request through the egress proxy under the request's own session.
 * Downloads, popups, dialogs and permission prompts are refused; images, media and fonts are not
 * fetched; the page is taken when it has settled or its time is up, and fails at once when its
 * renderer crashes (out of memory, or killed over its cap: browser-pool.ts) or it has received
 * more than `maxBytes`, counted decoded (by the proxy over http, by the browser over TLS). Its
 * context closes after the page is taken: a page that opened thousands of requests takes a second
 * or more to close under load, time that belongs to no caller's deadline.
 */
export async function renderPage(browser: Browser, proxy: EgressProxy, req: RenderRequest): Promise<RenderOutcome> {
  const opened = proxy.open({ policy: req.policy, maxRequests: req.maxRequests, maxBytes: req.maxBytes });
  if (!opened.ok) return { page: fail("config", opened.error.message), closed: Promise.resolve() };
  const session = opened.value;
  let context: BrowserContext;
  try {
    context = await browser.newContext({
      proxy: { server: proxy.url, username: session.username, password: session.password, bypass: PROXIED_LOOPBACK },
      userAgent: req.userAgent,
      acceptDownloads: false,
      serviceWorkers: "block",
      permissions: [],
    });
  } catch (error) {
    session.close();
    throw error;
  }
  const page = await takePage(context, req, session);
  session.close();
  return { page, closed: context.close().catch(() => {}) };
}

/** The page at `req.url` in `context`, taken when it has settled or its time is up. */
async function takePage(context: BrowserContext, req: RenderRequest, session: ProxySession): Promise<Result<RenderedPage, RenderFailureKind>> {
  try {
    let lastActivity = Date.now();
    const touch = () => void (lastActivity = Date.now());
    context.on("request", touch);
    context.on("requestfinished", touch);
    context.on("requestfailed", touch);
    let routed = 0;
    await context.route("**/*", async (route) => {
      const request = route.request();
      const scheme = URL.parse(request.url())?.protocol;
      routed++;
      if ((scheme !== "http:" && scheme !== "https:") || SKIPPED_TYPES.has(request.resourceType()) || routed > req.maxRequests) return route.abort("blockedbyclient");
      // robots.txt speaks for the documents the page loads in its main frame, not for what they load.
      const document = request.isNavigationRequest() && request.frame().parentFrame() === null;
      if (document && req.mayLoad && !(await req.mayLoad(request.url()))) return route.abort("blockedbyclient");
      return route.continue();
    });
    await context.addInitScript({ content: QUIET_PROBE_SCRIPT });
    const page = await context.newPage();
    // The document the page ends on: its URL, and its status (a bot check the browser did not get past keeps its refusing status).
    let document: PageDocument | undefined;
    page.on("response", (response) => void (response.request().isNavigationRequest() && response.frame() === page.mainFrame() && (document = { url: response.url(), status: response.status() })));
    // Popups and new windows are closed as they open.
    context.on("page", (other) => void (other !== page && other.close().catch(() => {})));
    page.on("dialog", (dialog) => void dialog.dismiss().catch(() => {}));
    // Why the page stops before it is taken, once it must: the first reason holds.
    const halt = new AbortController();
    const stop = (failure: PageFailure) => void (halt.signal.aborted || halt.abort(failure));
    page.on("crash", () =>
      stop(fail("failed", "The page's renderer crashed: it ran out of memory, or held more than one page's memory cap and was stopped (a page that allocates without bound); read it with render \"never\".")),
    );
    const tooLarge = () => stop(fail("failed", `The page received more than ${req.maxBytes} bytes, counted decoded (web.maxResponseBytes); read it with render "never".`));
    session.exceeded.addEventListener("abort", tooLarge, { once: true });
    await countReceivedBytes(context, page, (total) => total > req.maxBytes && tooLarge());
    const halted = () => halt.signal.reason as PageFailure;
    const until = Date.now() + req.deadline.remainingMs() - SNAPSHOT_RESERVE_MS;
    try {
      await unlessHalted(page.goto(req.url, { waitUntil: "domcontentloaded", timeout: Math.max(1, until - Date.now()) }), halt.signal);
    } catch (error) {
      if (halt.signal.aborted) return halted();
      if (Date.now() >= until) return fail("timeout", `The page did not load within its deadline.`);
      return fail("failed", `The browser could not load the page: ${errorReason(error)}.`);
    }
    if (halt.signal.aborted) return halted();
    await waitForSettled(page, () => lastActivity, until, halt.signal, req.waitForSelector);
    if (halt.signal.aborted) return halted();
    const html = await within(page.evaluate(`(${FLATTEN_DOM_SOURCE})(${req.maxBytes})`) as Promise<string>, Math.max(1, req.deadline.remainingMs()), halt.signal);
    if (halt.signal.aborted) return halted();
    if (typeof html !== "string") return fail("timeout", "The page's DOM could not be read within its deadline (its scripts kept the page busy).");
    const ended = endedOn(page.url(), document, session);
    if (!ended.ok) return ended;
    return ok({ html: html.slice(0, req.maxBytes), ...ended.value, requests: session.requests, refused: session.refused, refusals: session.refusals });
  } catch (error) {
    return fail("failed", `The browser failed while rendering the page: ${errorReason(error)}.`);
  }
}
