import { fail, failWith, ok, type Deadline, type FetchOptions, type RenderCounts, type RenderMode, type Result } from "@edge-web/shared";
import type { ContentSelectors, HandlerOutput } from "../extract/content-handler.ts";
import { extractContent } from "../extract/extract-content.ts";
import type { RenderedPage, Renderer } from "./renderer.ts";
import type { NetworkPolicy } from "./egress-types.ts";
import type { RobotsGuard } from "./robots-guard.ts";
import { scriptBuiltSignals } from "./script-built-signals.ts";

export interface RenderStep {
  mode: RenderMode;
  /** The static HTML's extraction: "auto" renders only when it looks built by scripts, or is a bot check (`challenged`). */
  extracted: HandlerOutput;
  /** The static answer is a bot check or block page: "auto" renders it, in case a browser is let through. */
  challenged?: boolean;
  /** The page's final URL after the static fetch's redirects. */
  url: string;
  options: FetchOptions;
  deadline: Deadline;
  /** The User-Agent the browser sends: the fetch's own. */
  userAgent: string;
  waitForSelector?: string;
  sessionKey?: string;
  /** robots.txt's say on the documents the page loads (none when it is ignored). */
  guard?: RobotsGuard;
  /** The caller's selectors, applied to the rendered page as to the served one. */
  selectors?: ContentSelectors;
}

/** A page without a single script cannot write its text in a browser, however short it is. */
const looksScriptBuilt = (extracted: HandlerOutput) => (extracted.signals?.scriptTags ?? 0) > 0 && scriptBuiltSignals(extracted).size > 0;

/**
 * The page rendered in the browser and extracted by the same HTML pipeline, or undefined when the
 * static extraction stands: "never", "auto" on a page that does not look script-built, "auto"
 * without a browser or when rendering failed. "always" fails instead.
 */
export async function renderWhenWanted(
  step: RenderStep,
  renderer: Renderer | undefined,
  signal?: AbortSignal,
): Promise<Result<{ extracted: HandlerOutput & { parseWarning?: string }; html: string; url: string; status: number; render: RenderCounts } | undefined>> {
  const { mode, options } = step;
  if (mode === "never" || (mode === "auto" && !step.challenged && !looksScriptBuilt(step.extracted))) return ok(undefined);
  const always = mode === "always";
  if (!renderer?.available) {
    return always
      ? failWith("CONTENT_FETCH_FAILED", 'render: "always" needs a browser, and none is installed in the fetch service: install Chromium (apt-get install chromium) or set SIDECAR_BROWSER_PATH; or fetch with render "auto" or "never".', { fault: "unavailable" })
      : ok(undefined);
  }
  const { allowPrivateNetwork, allowHosts, deniedDomains, allowedDomains } = options;
  const policy: NetworkPolicy = { allowPrivateNetwork, allowHosts, deniedDomains, allowedDomains };
  const rendered = await renderer.render(
    {
      url: step.url,
      policy,
      maxRequests: options.renderMaxRequests,
      maxBytes: options.maxResponseBytes,
      deadline: step.deadline,
      userAgent: step.userAgent,
      ...(step.waitForSelector && { waitForSelector: step.waitForSelector }),
      ...(step.sessionKey && { sessionKey: step.sessionKey }),
      ...(step.guard && { mayLoad: mayLoadUnder(step.guard) }),
    },
    signal,
  );
  if (!rendered.ok) {
    if (!always) return ok(undefined);
    const { code, message } = rendered.error;
    if (code === "timeout") return fail("CONTENT_FETCH_TIMEOUT", `Rendering ${new URL(step.url).origin} did not finish within its deadline (web.timeoutMs): ${message}`);
    if (code === "config") return fail("INVALID_INPUT", message);
    const fault = code === "busy" || code === "unavailable" ? "unavailable" : code === "blocked" ? "policy" : "upstream";
    return failWith("CONTENT_FETCH_FAILED", `Rendering the page failed: ${message}`, { fault });
  }
  const page = rendered.value;
  if (options.debug) logRefusals(page);
  return ok({
    extracted: extractContent("html", { text: page.html, url: page.url, mime: "text/html", ...(step.selectors && { selectors: step.selectors }) }),
    html: page.html,
    url: page.url,
    status: page.status,
    render: { requests: page.requests, refused: page.refused },
  });
}

/** A document URL the page asks for, as the guard judges it (an unparseable one is not loaded). */
const mayLoadUnder = (guard: RobotsGuard) => async (url: string) => {
  const parsed = URL.parse(url);
  return parsed !== null && (await guard(parsed)).ok;
};

/**
 * web.debug: one JSON line per refused request the page kept (its host and the reason, never the
 * path or query: they may carry secrets), and how many more were only counted.
 */
function logRefusals(page: RenderedPage): void {
  for (const { host, reason } of page.refusals) console.info(JSON.stringify({ event: "render_refused", host, reason }));
  const more = page.refused - page.refusals.length;
  if (more > 0) console.info(JSON.stringify({ event: "render_refused", more }));
}
