import { sidecarUrls } from "@edge-web/shared";
import type { Env } from "./env.ts";
import { sidecarInstance } from "./sidecar-instance.ts";

/** One request to the sidecar's `path` (/v1/fetch, /healthz…); `host` is the host the call is about, which picks the sidecar when there are several. */
export type SidecarFetch = (path: string, init?: RequestInit, host?: string) => Promise<Response>;

/**
 * How the worker sends a request to the sidecar: to one of the sidecar containers when they are
 * bound (SIDECAR_CONTAINER, `wrangler deploy --env containers`), else through the SIDECAR service
 * binding when the runtime gives one, else the global fetch to SIDECAR_URL — to one of its base
 * URLs when it lists several (a pool of sidecars run anywhere). Containers and a listed pool are
 * picked alike (sidecar-instance.ts), so each host's politeness limit holds in one sidecar.
 * `npm start` binds a single sidecar's socket directly, since its runtime sends every global fetch
 * through a worker of its own first (an isolate hop per request that a deployment does not make).
 * An invalid SIDECAR_URL answers every request 503 SIDECAR_UNAVAILABLE, saying what is wrong.
 */
export function sidecarFetch(env: Pick<Env, "SIDECAR_URL" | "SIDECAR" | "SIDECAR_CONTAINER" | "SIDECAR_INSTANCES">): SidecarFetch {
  const urls = sidecarUrls(env.SIDECAR_URL);
  if (!urls.ok) return async () => Response.json(urls, { status: 503 });
  const bases = urls.value;
  // With containers or a binding the URL only names the request: they decide where it goes.
  const named = (path: string) => `${bases[0]}${path}`;
  const containers = env.SIDECAR_CONTAINER;
  if (containers) {
    const count = Math.max(1, Math.trunc(Number(env.SIDECAR_INSTANCES)) || 1);
    return (path, init, host) => containers.getByName(`sidecar-${sidecarInstance(host, count)}`).fetch(named(path), init);
  }
  const binding = env.SIDECAR;
  if (binding) return (path, init) => binding.fetch(named(path), init);
  return (path, init, host) => fetch(`${bases[sidecarInstance(host, bases.length)]}${path}`, init);
}
