import type { CodedError, ConnectionPool, Result, StepClock } from "@edge-web/shared";
import type { Dispatcher } from "undici";

/** What decides whether a destination may be reached (web.allowPrivateNetwork, web.allowHosts, web.deniedDomains, web.allowedDomains). */
export interface NetworkPolicy {
  allowPrivateNetwork: boolean;
  /** Hostnames, IP literals or CIDRs exempt from the private-network block. */
  allowHosts: readonly string[];
  /** Hosts equal to or under one of these domains are refused, whatever else allows them. Absent means none. */
  deniedDomains?: readonly string[];
  /** When non-empty, only hosts equal to or under one of these domains may be reached (IP literals only if allowHosts lists them). */
  allowedDomains?: readonly string[];
}

/** A destination that passed the policy: connect to exactly this address. */
export interface VettedAddress {
  address: string;
  family: 4 | 6;
}

/** Why an outbound request did not produce a response; callers map kinds to their tool's codes. */
export type EgressFailureKind =
  | "invalid-url" // unparseable, or not http(s)
  | "blocked" // the network policy refused the destination
  | "dns" // the name did not resolve
  | "timeout" // timeoutMs elapsed
  | "aborted" // the caller's signal fired
  | "redirect" // too many redirects, or a redirect without a usable Location
  | "network" // connection refused/reset, TLS failure, malformed response
  | "config"; // web.allowHosts holds an entry that is not a host name, IP address or CIDR

/** Its message says what happened and what the caller can do; it never contains secrets. */
export type EgressFailure = CodedError<EgressFailureKind>;

export type EgressResult<T> = Result<T, EgressFailureKind>;

/** A response read to the end (or to the byte cap). */
export interface FetchedResponse {
  /** The final URL after redirects. */
  url: string;
  status: number;
  /** Lower-cased header names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** Decompressed bytes, at most maxResponseBytes. */
  bytes: Uint8Array;
  /** True when the body was longer than maxResponseBytes and reading stopped at the cap. */
  truncated: boolean;
  redirects: number;
  /** The vetted address the final hop connected to (callers use it to tell private destinations apart). */
  remoteAddress: string;
}

export interface SafeFetchRequest {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  policy: NetworkPolicy;
  timeoutMs: number;
  maxResponseBytes: number;
  signal?: AbortSignal;
  /** At most this many redirects are followed (default 5); each hop is vetted again. */
  maxRedirects?: number;
  /** The keep-alive pool to use for each hop's origin (default: the dispatcher source's own). */
  pool?: ConnectionPool;
  /** Collects the time spent vetting, connecting and reading (summed over redirect hops). */
  clock?: StepClock;
}

/** Resolves a hostname to every address it has (A and AAAA). */
export interface HostResolver {
  resolve(hostname: string, signal?: AbortSignal): Promise<string[]>;
}

export interface DispatcherSource {
  /** A keep-alive dispatcher whose connections go only to `vetted` for this origin, sized by `pool`. */
  dispatcherFor(origin: string, vetted: VettedAddress, pool?: ConnectionPool): Dispatcher;
  close(): Promise<void>;
}
