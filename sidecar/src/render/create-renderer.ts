import { existsSync } from "node:fs";
import { createHostLimiter, fail } from "@edge-web/shared";
import { chromium, type Browser } from "playwright-core";
import { errorReason } from "../error-reason.ts";
import { startEgressProxy, type EgressProxy, type EgressProxyDeps } from "./egress-proxy.ts";
import { renderPage } from "./render-page.ts";
import type { Renderer } from "../fetch/render-types.ts";

export interface RendererSettings {
  /** The Chromium binary; undefined when none is installed (rendering is then unavailable). */
  browserPath: string | undefined;
  /** Pages rendered at once (SIDECAR_RENDER_CONCURRENCY). */
  concurrency: number;
  /** Pages waiting for a free slot before new ones are refused. */
  maxQueue: number;
}

/** Debian's chromium package installs here. */
const DEFAULT_BROWSER_PATH = "/usr/bin/chromium";

/** SIDECAR_BROWSER_PATH, else Debian's chromium when it is installed. */
export function browserPathFrom(env: NodeJS.ProcessEnv): string | undefined {
  const path = env.SIDECAR_BROWSER_PATH || (existsSync(DEFAULT_BROWSER_PATH) ? DEFAULT_BROWSER_PATH : undefined);
  return path && existsSync(path) ? path : undefined;
}

/**
 * Every request the browser makes goes to the egress proxy: loopback is not bypassed (Playwright
 * adds <-loopback>), the browser resolves no names itself (the proxy does), QUIC and WebRTC's
 * non-proxied UDP are off. The browser-wide proxy has no credentials, so only pages in a context
 * with a live session's credentials get anywhere.
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
];

/**
 * One browser, started on first use and again after it crashes, rendering at most `concurrency`
 * pages at once with a bounded queue. The sandbox stays on unless the sidecar runs as root.
 */
export function createRenderer(settings: RendererSettings, deps: EgressProxyDeps): Renderer {
  const { browserPath } = settings;
  const limiter = createHostLimiter({ maxConcurrent: settings.concurrency, maxPerHost: settings.concurrency, maxQueue: settings.maxQueue });
  let proxy: Promise<EgressProxy> | undefined;
  let browser: Promise<Browser> | undefined;
  let pages = 0;
  let refused = 0;
  let launches = 0;

  const launch = async (): Promise<Browser> => {
    const egress = await (proxy ??= startEgressProxy(deps));
    launches++;
    const started = await chromium.launch({
      executablePath: browserPath!,
      headless: true,
      chromiumSandbox: process.getuid?.() !== 0,
      proxy: { server: egress.url },
      args: BROWSER_ARGS,
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    started.on("disconnected", () => {
      browser = undefined;
    });
    return started;
  };

  return {
    available: browserPath !== undefined,
    async render(req, signal) {
      if (!browserPath) return fail("unavailable", "No browser is installed for rendering: install Chromium (apt-get install chromium) or set SIDECAR_BROWSER_PATH to a Chromium binary.");
      const stop = signal ? AbortSignal.any([signal, req.deadline.signal]) : req.deadline.signal;
      const slot = await limiter.run(
        "render",
        async () => {
          let running: Browser;
          try {
            running = await (browser ??= launch().catch((error: unknown) => {
              browser = undefined;
              throw error;
            }));
          } catch (error) {
            return fail("failed", `The browser could not be started (${errorReason(error)}); check SIDECAR_BROWSER_PATH.`);
          }
          const egress = await proxy!;
          const rendered = await renderPage(running, egress, req).catch((error: unknown) =>
            fail("failed", `The browser failed while rendering the page: ${errorReason(error)}.`),
          );
          pages++;
          if (rendered.ok) refused += rendered.value.refused;
          return rendered;
        },
        { signal: stop },
      );
      if (slot.ok) return slot.value;
      if (slot.error.code === "queue-full") return fail("busy", "The renderer is at its concurrency limit (SIDECAR_RENDER_CONCURRENCY) and its queue is full.");
      return fail("timeout", "No renderer slot came free before the deadline.");
    },
    stats: () => ({ pages, refused, restarts: Math.max(0, launches - 1) }),
    async close() {
      const running = await browser?.catch(() => undefined);
      browser = undefined;
      await running?.close().catch(() => {});
      await (await proxy?.catch(() => undefined))?.close();
    },
  };
}
