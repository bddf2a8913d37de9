import { RELAY_HEADER, RELAY_REQUEST_HEADER, type RelayPolicy } from "@edge-web/shared";
import { EgressRefusedError } from "./egress-refused-error.ts";
import type { Env } from "./env.ts";

/** The relay's own limits are the protocol's longest: the caller's idle timer (modelFetch) ends a call sooner. */
const RELAY_WAIT_MS = 300_000;

/**
 * A fetch that sends each request through the sidecar's POST /v1/relay, which vets the destination
 * under `policy` and pins the connection; the answer streams back with the destination's status
 * and headers. A refusal throws EgressRefusedError with the sidecar's words (they never echo
 * headers or bodies). The caller's signal closes the relayed request.
 */
export function relayFetch(env: Pick<Env, "SIDECAR_URL" | "SIDECAR_TOKEN">, policy: RelayPolicy): typeof globalThis.fetch {
  const endpoint = `${env.SIDECAR_URL.replace(/\/+$/, "")}/v1/relay`;
  return async (input, init) => {
    const request = new Request(input, init);
    const method = request.method === "GET" ? "GET" : "POST";
    const description = { url: request.url, method, headers: Object.fromEntries(request.headers), policy, timeoutMs: RELAY_WAIT_MS, idleMs: RELAY_WAIT_MS };
    const response = await fetch(endpoint, {
      method: "POST",
      headers: { authorization: `Bearer ${env.SIDECAR_TOKEN ?? ""}`, "content-type": "application/octet-stream", [RELAY_REQUEST_HEADER]: encodeURIComponent(JSON.stringify(description)) },
      body: method === "POST" ? await request.arrayBuffer() : null,
      signal: init?.signal ?? request.signal,
    });
    if (response.headers.get(RELAY_HEADER) === "upstream") {
      const headers = new Headers(response.headers);
      headers.delete(RELAY_HEADER);
      return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
    }
    const refusal = (await response.json().catch(() => null)) as { error?: { code?: unknown; message?: unknown } } | null;
    const code = typeof refusal?.error?.code === "string" ? refusal.error.code : "network";
    const message = typeof refusal?.error?.message === "string" ? refusal.error.message : `the sidecar's relay answered HTTP ${response.status}; check that the sidecar is running and SIDECAR_URL points at it.`;
    throw new EgressRefusedError(code, response.status, message);
  };
}
