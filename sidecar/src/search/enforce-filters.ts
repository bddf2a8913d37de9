import type { Applied, Recency, SearchResult } from "@edge-web/shared";
import { inDomains } from "./in-domains.ts";
import type { SearchProvider, SearchQuery } from "./provider.ts";

/** How far back each window reaches; a month and a year get their longest length, so a window is never cut short. */
const WINDOW_MS: Record<Recency, number> = { day: 86_400_000, week: 7 * 86_400_000, month: 31 * 86_400_000, year: 366 * 86_400_000 };

export interface Enforced {
  results: SearchResult[];
  /** Absent when the query asked for no filter; each filter asked has its entry. */
  applied?: Applied;
}

/**
 * A provider's results held to the query's filters, whatever the provider did with them, and cut to
 * `numResults` afterwards. Domains: `applied` says how the provider took them, or "filtered" when
 * results outside them came back and were dropped here. Recency: "provider" when its own parameter
 * expresses the window; otherwise results dated before the window are dropped and undated ones kept
 * ("filtered"), or, when none of its results carries a date, nothing could be checked ("unsupported").
 */
export function enforceFilters(provider: SearchProvider, query: SearchQuery, results: readonly SearchResult[]): Enforced {
  const { includeDomains, excludeDomains, numResults, recency } = query;
  const domains = includeDomains.length > 0 || excludeDomains.length > 0;
  if (!domains && !recency) return { results: results.slice(0, numResults) };
  const applied: Applied = {};
  let kept = [...results];
  if (recency) {
    if (provider.recencies.includes(recency)) applied.recency = "provider";
    else {
      const since = query.now - WINDOW_MS[recency];
      applied.recency = kept.some((result) => result.publishedDate) ? "filtered" : "unsupported";
      kept = kept.filter((result) => !result.publishedDate || Date.parse(result.publishedDate) >= since);
    }
  }
  if (domains) {
    const inside = kept.filter((result) => inDomains(result.url, includeDomains, excludeDomains));
    applied.domains = inside.length < kept.length ? "filtered" : provider.domains;
    kept = inside;
  }
  return { results: kept.slice(0, numResults), applied };
}
