import type { Deadline, Result } from "@edge-web/shared";
import type { NetworkPolicy } from "./egress-types.ts";

/** One page to render under its call's network policy and caps. */
export interface RenderRequest {
  url: string;
  policy: NetworkPolicy;
  /** Requests the page may make, the document included (web.render.maxRequests). */
  maxRequests: number;
  /** Response bytes the page may receive, and the most HTML characters it answers (web.maxResponseBytes). */
  maxBytes: number;
  deadline: Deadline;
  /** Wait for this CSS selector too (it is not an error when it never appears). */
  waitForSelector?: string;
  /** Whether the page may load a document (its own or a navigation of its main frame; not subresources): robots.txt's say. */
  mayLoad?: (url: string) => Promise<boolean>;
  /** What the browser says it is, in its requests and to the page's scripts: ours, as every request says (no browser's). */
  userAgent: string;
  /** The session the page is rendered for (an opaque key): render slots are shared fairly between sessions. */
  sessionKey?: string;
}

/** One request the render proxy refused: its host (with port) and why, never its path or query (they may carry secrets). */
export interface Refusal {
  host: string;
  reason: string;
}

/** The rendered DOM's HTML, flattened, with what the page asked for and what was refused. */
export interface RenderedPage {
  html: string;
  /** Where the page ended up (after redirects and client-side navigation): always a URL an origin answered under the network policy (a page that ends anywhere else fails). */
  url: string;
  /** The status of the page's last document (0 when the browser saw none). */
  status: number;
  requests: number;
  refused: number;
  /** The first few refusals (hosts and reasons only), for web.debug. */
  refusals: Refusal[];
}

/** Why no rendering came: no browser, the pool full, the deadline, the browser failing, or the page moving on to a URL the proxy refused. */
export type RenderFailureKind = "unavailable" | "busy" | "timeout" | "failed" | "config" | "blocked";

/** The browser for pages built by script; absent or unavailable when no browser is installed. */
export interface RenderingDeps {
  renderer?: Renderer;
}

export interface Renderer {
  /** Whether a browser is installed (SIDECAR_BROWSER_PATH, or /usr/bin/chromium). */
  readonly available: boolean;
  render(req: RenderRequest, signal?: AbortSignal): Promise<Result<RenderedPage, RenderFailureKind>>;
  /**
   * Since start: pages rendered, requests of theirs refused, browsers started after the first;
   * now: browsers up and the resident bytes of their process trees (0 while none is up).
   */
  stats(): RendererStats;
  close(): Promise<void>;
}

export interface RendererStats {
  pages: number;
  refused: number;
  restarts: number;
  browsers: number;
  rssBytes: number;
}
