import type { CodedError, ConnectionPool, HostLimiter, Result, StepClock } from "@edge-web/shared";
import type { Readable } from "node:stream";
import type { Dispatcher } from "undici";
import type { RobotsCache } from "./robots-cache.ts";

/** What decides whether a destination may be reached (web.allowPrivateNetwork, web.allowHosts, web.deniedDomains, web.allowedDomains). */
export interface NetworkPolicy {
  allowPrivateNetwork: boolean;
  /** Hostnames, IP literals or CIDRs exempt from the private-network block. */
  allowHosts: readonly string[];
  /** Hosts equal to or under one of these domains are refused, whatever else allows them. Absent means none. */
  deniedDomains?: readonly string[];
  /** When non-empty, only hosts equal to or under one of these domains may be reached (IP literals only if allowHosts lists them). */
  allowedDomains?: readonly string[];
  /** What a refusal tells the caller to change (default: web.allowPrivateNetwork or web.allowHosts). */
  exemptHint?: string;
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
  | "config" // web.allowHosts holds an entry that is not a host name, IP address or CIDR
  | "robots"; // the origin's robots.txt disallows the URL (web.robots "respect")

/** Its message says what happened and what the caller can do; it never contains secrets. */
export type EgressFailure = CodedError<EgressFailureKind>;

export type EgressResult<T> = Result<T, EgressFailureKind>;

/** Where a request ended up: the final hop after redirects. */
interface FinalHop {
  /** The final URL after redirects. */
  url: string;
  status: number;
  redirects: number;
  /** The vetted address the final hop connected to (callers use it to tell private destinations apart). */
  remoteAddress: string;
}

/** A response read to the end (or to the byte cap). */
export interface FetchedResponse extends FinalHop {
  /** Lower-cased header names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** Decompressed bytes, at most maxResponseBytes. */
  bytes: Uint8Array;
  /** True when the body was longer than maxResponseBytes and reading stopped at the cap. */
  truncated: boolean;
}

/** A response whose body has not been read: the caller reads it to the end or destroys it. */
export interface OpenedResponse extends FinalHop {
  /** Lower-cased header names; repeated headers as arrays, as they came. */
  headers: Record<string, string | string[] | undefined>;
  /** The body as it arrives, still in its Content-Encoding. */
  body: Readable;
}

/** One request under the network policy (safeRequest); its timing is the caller's signal. */
export interface SafeRequest {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  policy: NetworkPolicy;
  /** "manual" answers a 3xx as it is (the default, "follow", follows it). */
  redirect?: "follow" | "manual";
  /** At most this many redirects are followed (default 5); each hop is vetted again. */
  maxRedirects?: number;
  /** Asked before each hop, once vetted, whether it may be fetched (robots.txt); a refusal ends the request. */
  guard?: (url: URL) => Promise<EgressResult<void>>;
  /** The keep-alive pool to use for each hop's origin (default: the dispatcher source's own). */
  pool?: ConnectionPool;
  /** Collects the time spent vetting and connecting (summed over redirect hops), and reading for safeFetch. */
  clock?: StepClock;
}

/** One request read to the end (safeFetch): one timeout for all of it, and a cap on the decoded body. */
export interface SafeFetchRequest extends SafeRequest {
  timeoutMs: number;
  maxResponseBytes: number;
  signal?: AbortSignal;
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

/** The sidecar's reader key (JINA_API_KEY) and the one origin it is sent to (JINA_BASE_URL's, default r.jina.ai's). */
export interface ReaderKey {
  apiKey: string;
  origin: string;
}

/** What the fetch pipeline uses: resolution, pinned connections, the outbound limit. */
export interface FetchContentDeps {
  resolver: HostResolver;
  dispatchers: DispatcherSource;
  limiter: HostLimiter;
  userAgent: string;
  /** Optional key for the reader service (sent as a bearer token to its own origin only, never logged). */
  reader?: ReaderKey;
  /** What origins' robots.txt said, kept per process; without it each request reads robots.txt afresh. */
  robots?: RobotsCache;
}
