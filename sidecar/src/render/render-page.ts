import { fail, ok, type Result } from "@edge-web/shared";
import type { Browser, BrowserContext } from "playwright-core";
import { errorReason } from "../error-reason.ts";
import type { EgressProxy } from "./egress-proxy.ts";
import type { ProxySession } from "./proxy-session.ts";
import { FLATTEN_DOM_SOURCE } from "./flatten-dom.ts";
import type { RenderedPage, RenderFailureKind, RenderRequest } from "../fetch/render-types.ts";
import { QUIET_PROBE_SCRIPT, waitForSettled } from "./wait-for-settled.ts";

/** Not text: never downloaded. */
const SKIPPED_TYPES = new Set(["image", "media", "font"]);
/** Kept back from the deadline for taking the DOM and extracting it. */
const SNAPSHOT_RESERVE_MS = 1_000;

/** A rendered page (or why not), and the closing of its context, which the answer does not wait for. */
export interface RenderOutcome {
  page: Result<RenderedPage, RenderFailureKind>;
  closed: Promise<void>;
}

/**
 * Renders one page in a fresh context (no cookies, storage, cache or service workers shared with
 * any other page), every request through the egress proxy under the request's own session.
 * Downloads, popups, dialogs and permission prompts are refused; images, media and fonts are not
 * fetched; the page is taken when it has settled or its time is up. Its context closes after the
 * page is taken: a page that opened thousands of requests takes a second or more to close under
 * load, time that belongs to no caller's deadline.
 */
export async function renderPage(browser: Browser, proxy: EgressProxy, req: RenderRequest): Promise<RenderOutcome> {
  const opened = proxy.open({ policy: req.policy, maxRequests: req.maxRequests, maxBytes: req.maxBytes });
  if (!opened.ok) return { page: fail("config", opened.error.message), closed: Promise.resolve() };
  const session = opened.value;
  let context: BrowserContext;
  try {
    context = await browser.newContext({
      proxy: { server: proxy.url, username: session.username, password: session.password },
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
    await context.route("**/*", (route) => {
      const request = route.request();
      const scheme = URL.parse(request.url())?.protocol;
      routed++;
      if ((scheme !== "http:" && scheme !== "https:") || SKIPPED_TYPES.has(request.resourceType()) || routed > req.maxRequests) return route.abort("blockedbyclient");
      return route.continue();
    });
    await context.addInitScript({ content: QUIET_PROBE_SCRIPT });
    const page = await context.newPage();
    // Popups and new windows are closed as they open.
    context.on("page", (other) => void (other !== page && other.close().catch(() => {})));
    page.on("dialog", (dialog) => void dialog.dismiss().catch(() => {}));
    // A renderer that dies (out of memory: BROWSER_ARGS caps its heap) ends the wait at once.
    const crash = new AbortController();
    page.on("crash", () => crash.abort());
    const crashed = () => fail("failed", "The page's renderer crashed (a page that allocates without bound runs out of its memory); read it with render \"never\".");
    const until = Date.now() + req.deadline.remainingMs() - SNAPSHOT_RESERVE_MS;
    try {
      await page.goto(req.url, { waitUntil: "domcontentloaded", timeout: Math.max(1, until - Date.now()) });
    } catch (error) {
      if (crash.signal.aborted) return crashed();
      if (Date.now() >= until) return fail("timeout", `The page did not load within its deadline.`);
      return fail("failed", `The browser could not load the page: ${errorReason(error)}.`);
    }
    await waitForSettled(page, () => lastActivity, until, crash.signal, req.waitForSelector);
    if (crash.signal.aborted) return crashed();
    const html = await Promise.race([
      page.evaluate(`(${FLATTEN_DOM_SOURCE})(${req.maxBytes})`) as Promise<string>,
      new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), Math.max(1, req.deadline.remainingMs()))),
    ]).catch(() => undefined);
    if (typeof html !== "string") return fail("timeout", "The page's DOM could not be read within its deadline (its scripts kept the page busy).");
    return ok({ html: html.slice(0, req.maxBytes), url: page.url(), requests: session.requests, refused: session.refused, refusals: session.refusals });
  } catch (error) {
    return fail("failed", `The browser failed while rendering the page: ${errorReason(error)}.`);
  }
}
