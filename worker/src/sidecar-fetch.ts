import type { Env } from "./env.ts";
import { sidecarInstance } from "./sidecar-instance.ts";

/** One request to the sidecar; `host` is the host the call is about, which picks the container when there are several. */
export type SidecarFetch = (input: RequestInfo | URL, init?: RequestInit, host?: string) => Promise<Response>;

/**
 * How the worker sends a request to the sidecar: to one of the sidecar containers when they are
 * bound (SIDECAR_CONTAINER, `wrangler deploy --env containers`; sidecar-instance.ts picks which),
 * else through the SIDECAR service binding when the runtime gives one, else the global fetch to
 * SIDECAR_URL. `npm start` binds the sidecar's socket directly, since its runtime sends every
 * global fetch through a worker of its own first (an isolate hop per request that a deployment
 * does not make).
 */
export function sidecarFetch(env: Pick<Env, "SIDECAR" | "SIDECAR_CONTAINER" | "SIDECAR_INSTANCES">): SidecarFetch {
  const containers = env.SIDECAR_CONTAINER;
  if (containers) {
    const count = Math.max(1, Math.trunc(Number(env.SIDECAR_INSTANCES)) || 1);
    return (input, init, host) => containers.getByName(`sidecar-${sidecarInstance(host, count)}`).fetch(input, init);
  }
  const binding = env.SIDECAR;
  return binding ? (input, init) => binding.fetch(input, init) : (input, init) => fetch(input, init);
}
