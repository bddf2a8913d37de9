import type { Applied, SearchResult } from "@edge-web/shared";
import { inDomains } from "./in-domains.ts";
import type { SearchProvider, SearchQuery } from "./provider.ts";

export interface Enforced {
  results: SearchResult[];
  /** Absent when the query asked for no filter. */
  applied?: Applied;
}

/**
 * A provider's results held to the query's filters, whatever the provider did with them, and cut to
 * `numResults` afterwards; `applied` says how the provider took them, or "filtered" when results
 * outside them came back and were dropped here.
 */
export function enforceFilters(provider: SearchProvider, query: SearchQuery, results: readonly SearchResult[]): Enforced {
  const { includeDomains, excludeDomains, numResults } = query;
  if (includeDomains.length === 0 && excludeDomains.length === 0) return { results: results.slice(0, numResults) };
  const kept = results.filter((result) => inDomains(result.url, includeDomains, excludeDomains));
  return { results: kept.slice(0, numResults), applied: { domains: kept.length < results.length ? "filtered" : provider.domains } };
}
