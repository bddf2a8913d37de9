import type {
  CodedError,
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

/** One search backend: whether the settings allow it, and how to ask it. */
export interface SearchProvider {
  name: ProviderName;
  /** Human name plus config name, used in every message, e.g. "Brave Search (brave)". */
  label: string;
  /** True, or why not and what to set (PROVIDER_AUTH_FAILED for a missing key, INVALID_INPUT otherwise). */
  usable(settings: SearchProviderSettings): true | CodedError;
  /** At most `numResults` results; never throws. */
  search(query: string, numResults: number, settings: SearchProviderSettings, ctx: SearchContext, signal?: AbortSignal): Promise<SearchOutcome<SearchResult[]>>;
}

/** What messages need to name a provider. */
export type ProviderId = Pick<SearchProvider, "name" | "label">;
