import { existsSync } from "node:fs";
import { createHostLimiter, fail } from "@edge-web/shared";
import { chromium } from "playwright-core";
import { errorReason } from "../error-reason.ts";
import { linkSignals } from "../link-signals.ts";
import { createBrowserPool, type BrowserLease, type BrowserPoolLimits } from "./browser-pool.ts";
import { startEgressProxy, type EgressProxy, type EgressProxyDeps } from "./egress-proxy.ts";
import { PROXIED_LOOPBACK } from "./proxied-loopback.ts";
import { renderPage } from "./render-page.ts";
import { within } from "./within.ts";
import type { Renderer } from "../fetch/renderer.ts";

type RenderResult = Awaited<ReturnType<Renderer["render"]>>;

export interface RendererSettings extends BrowserPoolLimits {
  /** The Chromium binary; undefined when none is installed (rendering is then unavailable). */
  browserPath: string | undefined;
  /** Pages rendered at once (SIDECAR_RENDER_CONCURRENCY), at most half of them one session's. */
  concurrency: number;
  /** Pages waiting for a free slot before new ones are refused. */
  maxQueue: number;
  /**
   * Test origins' public keys (base64 SHA-256 SPKI hashes) the browser accepts whatever their
   * certificates say; only ever set under SIDECAR_TEST_MODE (test-trust-from-env.ts).
   */
  trustedTestSpki?: string[];
}

/**
 * How long a page's context may take to close before its slot is given back anyway. A renderer
 * killed while it was crashing on its own (out of memory) can go unreported to the browser, whose
 * close then waits on it for good: its browser is retired instead, and closes with it.
 */
const CONTEXT_CLOSE_MS = 5_000;


/** Debian's chromium package installs here. */
const DEFAULT_BROWSER_PATH = "/usr/bin/chromium";

/** SIDECAR_BROWSER_PATH, else Debian's chromium when it is installed. */
export function browserPathFrom(env: NodeJS.ProcessEnv): string | undefined {
  const path = env.SIDECAR_BROWSER_PATH || (existsSync(DEFAULT_BROWSER_PATH) ? DEFAULT_BROWSER_PATH : undefined);
  return path && existsSync(path) ? path : undefined;
}

/** The JavaScript heap one page's renderer may hold: V8 crashes the renderer past it. */
const RENDERER_HEAP_MB = 512;
/**
 * The resident memory one page's renderer may hold before it is killed (watch-memory.ts): the heap
 * above, the renderer's own code and shared pages (about 150 MB) and some room, so a page that
 * fills its heap crashes on V8's limit first: a renderer killed while V8 was failing it went
 * unreported to the browser once in our tests, and its page waited out its deadline.
 */
const RENDERER_RSS_MB = 768;

/**
 * Every request the browser makes goes to the egress proxy: loopback is not bypassed
 * (PROXIED_LOOPBACK), the browser resolves no names itself (the proxy does), QUIC and WebRTC's
 * non-proxied UDP are off. The browser-wide proxy has no credentials, so only pages in a context
 * with a live session's credentials get anywhere. Shared workers are off: they belong to no page,
 * so the bytes they receive would escape the page's count (count-received-bytes.ts).
 */
const BROWSER_ARGS = [
  "--disable-quic",
  "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
  "--webrtc-ip-handling-policy=disable_non_proxied_udp",
  "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
  "--dns-prefetch-disable",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-domain-reliability",
  "--disable-sync",
  "--no-pings",
  "--metrics-recording-only",
  "--disable-shared-workers",
  // A page that allocates on V8's heap without bound crashes its own renderer here; memory outside it is watched (browser-pool.ts).
  `--js-flags=--max-old-space-size=${RENDERER_HEAP_MB}`,
];

/**
 * One browser, started on first use, rendering at most `concurrency` pages at once with a bounded
 * queue, shared fairly between sessions (a fair host limiter keyed by session); a fresh one takes new pages after a
 * crash, `maxPages` pages or `maxRssBytes` of memory (browser-pool.ts). The sandbox stays on unless
 * the sidecar runs as root.
 */
export function createRenderer(settings: RendererSettings, deps: EgressProxyDeps): Renderer {
  const { browserPath } = settings;
  // No session (the opaque sessionKey the worker sends) holds more than half the slots, and sessions
  // take turns: a page in a busy loop holds its slot to its deadline, and one session's pages must
  // not hold every slot while another's wait out theirs.
  const slots = createHostLimiter({ maxConcurrent: settings.concurrency, maxPerHost: Math.max(1, Math.floor(settings.concurrency / 2)), maxQueue: settings.maxQueue, fair: true });
  let proxy: Promise<EgressProxy> | undefined;
  let pages = 0;
  let refused = 0;

  const browsers = createBrowserPool(async () => {
    const egress = await (proxy ??= startEgressProxy(deps));
    return chromium.launch({
      executablePath: browserPath!,
      headless: true,
      chromiumSandbox: process.getuid?.() !== 0,
      proxy: { server: egress.url, bypass: PROXIED_LOOPBACK },
      args: settings.trustedTestSpki?.length ? [...BROWSER_ARGS, `--ignore-certificate-errors-spki-list=${settings.trustedTestSpki.join(",")}`] : BROWSER_ARGS,
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
  }, { ...settings, rendererBytes: RENDERER_RSS_MB * 1_048_576 });

  return {
    available: browserPath !== undefined,
    async render(req, signal) {
      if (!browserPath) return fail("unavailable", "No browser is installed for rendering: install Chromium (apt-get install chromium) or set SIDECAR_BROWSER_PATH to a Chromium binary.");
      const stop = linkSignals([signal, req.deadline.signal]);
      // The page is answered as soon as it is taken; its slot and browser stay held until its context has closed (CONTEXT_CLOSE_MS at most).
      let answer!: (page: RenderResult) => void;
      const answered = new Promise<RenderResult>((resolve) => (answer = resolve));
      // Requests without a session's key (none come from the worker) share one key: together they are held like one session.
      const slot = slots.run(
        req.sessionKey ?? "",
        async () => {
          let lease: BrowserLease;
          try {
            lease = await browsers.lease();
          } catch (error) {
            return answer(fail("failed", `The browser could not be started (${errorReason(error)}); check SIDECAR_BROWSER_PATH.`));
          }
          let closed = Promise.resolve();
          try {
            const rendered = await renderPage(lease.browser, await proxy!, req);
            closed = rendered.closed;
            pages++;
            if (rendered.page.ok) refused += rendered.page.value.refused;
            answer(rendered.page);
          } catch (error) {
            answer(fail("failed", `The browser failed while rendering the page: ${errorReason(error)}.`));
          } finally {
            if ((await within(closed.then(() => true, () => true), CONTEXT_CLOSE_MS)) === undefined) lease.retire();
            lease.release();
          }
        },
        { signal: stop.signal },
      ).finally(stop.unlink);
      // A task that ran answers before its slot is let go; a slot that never came answers why.
      const notRun = slot.then((queued): RenderResult | Promise<RenderResult> => {
        if (queued.ok) return answered;
        if (queued.error.code === "queue-full") return fail("busy", "The renderer is at its concurrency limit (SIDECAR_RENDER_CONCURRENCY) and its queue is full.");
        return fail("timeout", "No renderer slot came free before the deadline.");
      });
      return Promise.race([answered, notRun]);
    },
    stats: () => ({ pages, refused, ...browsers.stats() }),
    async close() {
      await browsers.close();
      await (await proxy?.catch(() => undefined))?.close();
    },
  };
}
