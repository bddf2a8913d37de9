import { Readable } from "node:stream";
import { fail, type ConnectionPool, type SidecarRelayRequestSchema } from "@edge-web/shared";
import type * as v from "valibot";
import type { EgressResult } from "../fetch/egress-types.ts";
import { flattenHeaders } from "../fetch/flatten-headers.ts";
import { linkSignals } from "../link-signals.ts";
import { decodeBody } from "../fetch/read-body.ts";
import { safeRequest, type SafeRequestDeps } from "../fetch/safe-request.ts";
import { endToEndHeaders } from "./end-to-end-headers.ts";
import { watchIdle } from "./watch-idle.ts";

export type RelayRequest = v.InferOutput<typeof SidecarRelayRequestSchema>;

/** The destination's answer as the relay passes it on: its status, its end-to-end headers, its body decoded as it arrives. */
export interface RelayedResponse {
  status: number;
  headers: Record<string, string | string[]>;
  body: Readable;
}

/**
 * Model streams last minutes, so the fetch-sized pool (SIDECAR_MAX_PER_HOST connections per origin)
 * would make the eleventh concurrent stream to one provider wait for a free connection.
 */
const RELAY_POOL: ConnectionPool = { maxSockets: 256, timeout: 60_000 };

/** The caller's fields the relay does not pass on: its Host names the sidecar; length and encodings are the relay's own. */
const NOT_FORWARDED = ["host", "content-length", "accept-encoding", "expect"];
/** The body reaches the caller decoded, in chunks of unknown total length. */
const NOT_RETURNED = ["content-encoding", "content-length"];

/**
 * Sends one request the worker cannot send safely itself: vetted like every fetch (names, IP
 * notations, every DNS answer, a connection pinned to the vetted address, TLS checked against the
 * name). A POST's redirect is answered as it is, never followed; a GET follows up to 5, each hop
 * vetted again. `timeoutMs` runs until the response headers; then each wait for a body chunk may
 * last `idleMs`, past which the upstream connection is closed and the body fails. `signal` (the
 * caller going away) closes it too.
 */
export async function relayRequest(relay: RelayRequest, body: Uint8Array, deps: SafeRequestDeps, signal: AbortSignal): Promise<EgressResult<RelayedResponse>> {
  const stop = new AbortController();
  const linked = linkSignals([signal, stop.signal]);
  const all = linked.signal;
  const headersTimer = setTimeout(() => stop.abort(), relay.timeoutMs);
  const post = relay.method === "POST";
  const opened = await safeRequest(
    {
      url: relay.url,
      method: relay.method,
      headers: endToEndHeaders(relay.headers, NOT_FORWARDED),
      ...(post && { body }),
      policy: relay.policy,
      redirect: post ? "manual" : "follow",
      pool: RELAY_POOL,
    },
    deps,
    all,
  );
  clearTimeout(headersTimer);
  if (all.aborted || !opened.ok) linked.unlink();
  if (all.aborted) {
    if (opened.ok) opened.value.body.destroy();
    const origin = URL.parse(relay.url)?.origin ?? "the destination";
    if (signal.aborted) return fail("aborted", `The request to ${origin} was aborted by the caller.`);
    return fail("timeout", `The request to ${origin} sent no response headers within ${relay.timeoutMs} ms.`);
  }
  if (!opened.ok) return opened;
  const { status, headers, body: raw } = opened.value;
  // undici reads any three digits; passed on, a status no HTTP status has breaks the caller's Response.
  if (status < 100 || status > 599) {
    // Closed unread: undici then emits an abort error, which no reader is there to take.
    raw.once("error", () => {}).destroy();
    linked.unlink();
    return fail("network", `${new URL(opened.value.url).origin} answered with status ${status}, which is not an HTTP status (100–599).`);
  }
  const decoded = decodeBody(raw, flattenHeaders(headers)["content-encoding"]);
  if (!decoded.ok) {
    linked.unlink();
    return decoded;
  }
  // Aborting closes the upstream body, which fails the stream the caller reads.
  const chunks = watchIdle(decoded.value, relay.idleMs, () => stop.abort());
  const streamed = Readable.from(chunks, { objectMode: false });
  streamed.once("close", linked.unlink);
  return { ok: true, value: { status, headers: endToEndHeaders(headers, NOT_RETURNED), body: streamed } };
}
