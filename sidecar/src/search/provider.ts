import type {
  CodedError,
  Recency,
  ConnectionPool,
  Deadline,
  HostLimiter,
  ProviderName,
  SearchOutcome,
  SearchProviderSettings,
  SearchResult,
  StepClock,
} from "@edge-web/shared";
import type { DispatcherSource, HostResolver, NetworkPolicy } from "../fetch/egress-types.ts";

/** What searching needs from the sidecar: the egress plumbing and the global outbound limit. */
export interface SearchDeps {
  resolver: HostResolver;
  dispatchers: DispatcherSource;
  limiter: HostLimiter;
  userAgent: string;
}

/** Per-search limits every provider request obeys. */
export interface SearchContext {
  deps: SearchDeps;
  /** Each provider request's own limit (web.timeoutMs), within the search's deadline. */
  timeoutMs: number;
  /** The whole search, every provider tried and every queue waited in. */
  deadline: Deadline;
  maxResponseBytes: number;
  /** Where this provider's requests may go: anywhere for the operator's URL, else the configured-URL policy. */
  policy: NetworkPolicy;
  pool?: ConnectionPool;
  clock?: StepClock;
}

/** One search as a provider is asked it: the text, how many results, the caller's filters (domains lower case). */
export interface SearchQuery {
  text: string;
  numResults: number;
  recency?: Recency;
  /** The answer's time (epoch ms): recency windows and relative dates count from it. */
  now: number;
  includeDomains: readonly string[];
  excludeDomains: readonly string[];
}

/** One search backend: whether the settings allow it, and how to ask it. */
export interface SearchProvider {
  name: ProviderName;
  /** Human name plus config name, used in every message, e.g. "Brave Search (brave)". */
  label: string;
  /** True, or why not and what to set (PROVIDER_AUTH_FAILED for a missing key, INVALID_INPUT otherwise). */
  usable(settings: SearchProviderSettings): true | CodedError;
  /** How it takes domain filters: parameters of its own ("provider") or site: operators in its query language ("query"). */
  domains: "provider" | "query";
  /** The recency windows its own parameter expresses; for others its dated results are filtered here. */
  recencies: readonly Recency[];
  /** Its results in its order, not yet cut to `numResults` nor checked against the filters; never throws. */
  search(query: SearchQuery, settings: SearchProviderSettings, ctx: SearchContext, signal?: AbortSignal): Promise<SearchOutcome<SearchResult[]>>;
}

/** What messages need to name a provider. */
export type ProviderId = Pick<SearchProvider, "name" | "label">;
