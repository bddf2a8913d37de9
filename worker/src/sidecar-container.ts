import { DurableObject } from "cloudflare:workers";
import { fail } from "@edge-web/shared";
import type { Env } from "./env.ts";

/** The port the image's sidecar listens on (sidecar/Dockerfile's SIDECAR_PORT). */
const SIDECAR_PORT = 8788;
/** How long a starting container may take to listen; the caller's own deadline (it aborts its fetch) ends the wait sooner. */
const START_MS = 30_000;
const START_POLL_MS = 250;
/** An instance is stopped (SIGTERM) after this long without calls, since a running one is billed; every call's deadline is far shorter. */
const SLEEP_AFTER_MS = 10 * 60_000;
const SIGTERM = 15;

/** The worker's settings the sidecar reads from its environment; nothing else of the worker's reaches the container. */
const PASSED_TO_SIDECAR = ["SIDECAR_TOKEN", "JINA_API_KEY", "JINA_BASE_URL"] as const;

/**
 * One sidecar container on Cloudflare Containers (wrangler.toml's `[env.containers]`), reached
 * through this Durable Object: its fetch starts the container when it is not running, waits until
 * the sidecar listens, and passes the request on. A container that cannot start, or fails with a
 * call in flight, answers 503 SIDECAR_UNAVAILABLE; the next call starts it again. Written against
 * the runtime's own `ctx.container`, the API the `@cloudflare/containers` package wraps.
 */
export class SidecarContainer extends DurableObject<Env> {
  /** Whether the sidecar listens, once found out: calls that arrive while it starts wait on the same answer. */
  private ready: Promise<boolean> | undefined;

  override async fetch(request: Request): Promise<Response> {
    const container = this.ctx.container;
    if (!container) return unavailable("This Durable Object has no container: deploy with `wrangler deploy --env containers`.");
    await this.ctx.storage.setAlarm(Date.now() + SLEEP_AFTER_MS);
    const port = container.getTcpPort(SIDECAR_PORT);
    if (!container.running || !this.ready) {
      if (!container.running) {
        const env: Record<string, string> = {};
        for (const name of PASSED_TO_SIDECAR) if (this.env[name]) env[name] = this.env[name];
        container.start({ env, enableInternet: true });
      }
      this.ready = listening(port);
    }
    if (!(await this.ready)) {
      this.ready = undefined;
      return unavailable(`The sidecar container did not listen within ${START_MS / 1000} s of its start.`);
    }
    try {
      return await port.fetch(request);
    } catch (error) {
      this.ready = undefined;
      return unavailable(`The sidecar container failed (${(error as Error).message}); the next call starts it again.`);
    }
  }

  override async alarm(): Promise<void> {
    if (this.ctx.container?.running) this.ctx.container.signal(SIGTERM);
  }
}

/** Whether the sidecar answers (any status: /healthz wants the token) before START_MS has passed. */
async function listening(port: Fetcher): Promise<boolean> {
  for (const until = Date.now() + START_MS; Date.now() < until; await new Promise((resolve) => setTimeout(resolve, START_POLL_MS))) {
    try {
      const response = await port.fetch("http://sidecar/healthz");
      await response.body?.cancel();
      return true;
    } catch {}
  }
  return false;
}

function unavailable(message: string): Response {
  return Response.json(fail("SIDECAR_UNAVAILABLE", message), { status: 503 });
}
