import * as v from "valibot";
import { FetchOptionsSchema } from "./sidecar-protocol.ts";
import { WebConfigSchema } from "./web-config.ts";

/** POST /v1/relay: the request to forward rides in this header as percent-encoded JSON; the HTTP body is the request's body. */
export const RELAY_REQUEST_HEADER = "x-relay-request";
/** On every answer of /v1/relay: "upstream" (the destination's own status, headers and body) or "refused" (a JSON Failure from the sidecar). */
export const RELAY_HEADER = "x-relay";
/** The most request-body bytes a relayed request may carry; more is 413 PAYLOAD_TOO_LARGE. */
export const MAX_RELAY_BODY_BYTES = 16 * 1024 * 1024;

/** The sidecar's connections give up after five minutes without a header or a body chunk (undici's own timeouts). */
export const MAX_RELAY_WAIT_MS = 300_000;
const waitMs = v.pipe(WebConfigSchema.entries.timeoutMs.wrapped, v.maxValue(MAX_RELAY_WAIT_MS));

/** The network policy a relayed request is vetted under: the same entries, and defaults, as a fetch's. */
export const RelayPolicySchema = v.object({
  allowPrivateNetwork: FetchOptionsSchema.entries.allowPrivateNetwork,
  allowHosts: FetchOptionsSchema.entries.allowHosts,
  deniedDomains: FetchOptionsSchema.entries.deniedDomains,
  allowedDomains: FetchOptionsSchema.entries.allowedDomains,
});
export type RelayPolicy = v.InferInput<typeof RelayPolicySchema>;

/** RFC 9110 field names are tokens; values carry no line breaks or NUL (they would split the request). */
const HeaderNameSchema = v.pipe(v.string(), v.regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, "must be an HTTP header name"));
const HeaderValueSchema = v.pipe(v.string(), v.regex(/^[^\r\n\0]*$/, "must not contain line breaks"));

/** One HTTP request for the sidecar to send under `policy`, answered as it streams. */
export const SidecarRelayRequestSchema = v.object({
  url: v.string(),
  method: v.picklist(["GET", "POST"]),
  headers: v.optional(v.record(HeaderNameSchema, HeaderValueSchema), {}),
  policy: RelayPolicySchema,
  /** Milliseconds until the destination's response headers arrive (resolution, connection and redirects included). */
  timeoutMs: waitMs,
  /** The longest wait for the next body chunk; past it the relay closes both connections. */
  idleMs: waitMs,
});
export type SidecarRelayRequest = v.InferInput<typeof SidecarRelayRequestSchema>;
