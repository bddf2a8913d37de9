import type { Env } from "./env.ts";

/**
 * How the worker sends a request to the sidecar: through the SIDECAR service binding when the
 * runtime gives one, else the global fetch to SIDECAR_URL. `npm start` binds the sidecar's socket
 * directly, since its runtime sends every global fetch through a worker of its own first (an
 * isolate hop per request that a deployment does not make).
 */
export function sidecarFetch(env: Pick<Env, "SIDECAR">): typeof fetch {
  const binding = env.SIDECAR;
  return binding ? (input, init) => binding.fetch(input, init) : fetch;
}
