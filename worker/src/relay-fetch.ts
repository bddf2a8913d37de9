import { FailureSchema, RELAY_HEADER, RELAY_REQUEST_HEADER, type RelayPolicy, type SidecarRelayRequest } from "@edge-web/shared";
import * as v from "valibot";
import { EgressRefusedError } from "./egress-refused-error.ts";
import type { Env } from "./env.ts";
import { RelayUnavailableError } from "./relay-unavailable-error.ts";
import { sidecarFetch } from "./sidecar-fetch.ts";

/** How long the relay waits for the destination: until its response headers, and for each body chunk after them. */
export interface RelayTiming {
  timeoutMs: number;
  idleMs: number;
}

/**
 * A fetch that sends every request through the sidecar's POST /v1/relay, which vets the
 * destination under `policy` and pins the connection to the vetted address (a Worker can do
 * neither). It answers the destination's status, headers and body as the body streams; a refusal
 * or a failure before any answer throws EgressRefusedError. The init's signal closes the relayed
 * request; a sidecar that cannot relay throws RelayUnavailableError. Only GET and POST are relayed.
 */
export function relayFetch(env: Pick<Env, "SIDECAR_URL" | "SIDECAR_TOKEN" | "SIDECAR" | "SIDECAR_CONTAINER" | "SIDECAR_INSTANCES">, policy: RelayPolicy, timing: RelayTiming): typeof fetch {
  const send = sidecarFetch(env);
  return async (input, init) => {
    const request = new Request(input, init);
    const method = request.method.toUpperCase();
    if (method !== "GET" && method !== "POST") throw new TypeError(`The relay sends GET and POST requests only, not ${method}.`);
    const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    const description: SidecarRelayRequest = { url: request.url, method, headers: Object.fromEntries(request.headers), policy, ...timing };
    let response: Response;
    try {
      response = await send("/v1/relay", {
        method: "POST",
        headers: { authorization: `Bearer ${env.SIDECAR_TOKEN ?? ""}`, [RELAY_REQUEST_HEADER]: encodeURIComponent(JSON.stringify(description)) },
        body: request.body,
        // A relayed 3xx is the destination's answer: following it here would leave the policy behind.
        redirect: "manual",
        ...(signal && { signal }),
      }, new URL(request.url).hostname);
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new RelayUnavailableError("The sidecar could not be reached to relay the request; check that it is running and SIDECAR_URL points at it.", { cause: error });
    }
    const mark = response.headers.get(RELAY_HEADER);
    if (mark === "upstream") {
      const headers = new Headers(response.headers);
      headers.delete(RELAY_HEADER);
      return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
    }
    const refusal = v.safeParse(FailureSchema, await response.json().catch(() => null));
    if (mark === "refused" && refusal.success) throw new EgressRefusedError(refusal.output.error.code, response.status, refusal.output.error.message);
    // A sidecar container that could not start, or a SIDECAR_URL that names no sidecar (sidecar-fetch.ts).
    if (refusal.success && refusal.output.error.code === "SIDECAR_UNAVAILABLE") throw new RelayUnavailableError(refusal.output.error.message);
    if (response.status === 401) throw new RelayUnavailableError("The sidecar refused the worker's token; set the same SIDECAR_TOKEN on both.");
    throw new RelayUnavailableError(`The sidecar gave an unexpected answer (HTTP ${response.status}) to a relayed request.`);
  };
}
