import type { ProviderName, SearchResult } from "@edge-web/shared";
import { normalizedUrl } from "./normalized-url.ts";

/**
 * Reciprocal rank fusion's constant: a result scores Σ 1 / (RRF_K + rank) over the providers that
 * found it. 60 is the value of the method's paper (Cormack, Clarke and Büttcher, 2009) and the
 * usual default: it keeps one provider's first place from outweighing agreement between providers.
 */
export const RRF_K = 60;

/** One provider's results, best first, as its answer (held to the filters) ranks them. */
export interface RankedList {
  provider: ProviderName;
  results: readonly SearchResult[];
}

interface Fused {
  result: SearchResult;
  score: number;
  /** The best rank any provider gave it, and the position of that provider's list. */
  best: number;
  list: number;
  sources: { provider: ProviderName; rank: number }[];
}

/**
 * Several providers' results as one list: results with the same normalised URL merged (the best
 * ranked one answered, with a snippet or date another provider gave when it had none), ordered by
 * reciprocal rank fusion, ties by best rank then by the lists' order; each result lists its
 * `sources`. Cut to `numResults`.
 */
export function fuseResults(lists: readonly RankedList[], numResults: number): SearchResult[] {
  const fused = new Map<string, Fused>();
  lists.forEach(({ provider, results }, list) => {
    const seen = new Set<string>();
    results.forEach((result, index) => {
      const key = normalizedUrl(result.url);
      // A provider that answers one page twice counts once, at its first rank.
      if (seen.has(key)) return;
      seen.add(key);
      const rank = index + 1;
      const entry = fused.get(key);
      if (!entry) {
        fused.set(key, { result, score: 1 / (RRF_K + rank), best: rank, list, sources: [{ provider, rank }] });
        return;
      }
      entry.score += 1 / (RRF_K + rank);
      entry.sources.push({ provider, rank });
      const [kept, other] = rank < entry.best ? [result, entry.result] : [entry.result, result];
      if (rank < entry.best) Object.assign(entry, { best: rank, list });
      entry.result = { ...kept, ...(!kept.snippet && other.snippet && { snippet: other.snippet }), ...(!kept.publishedDate && other.publishedDate && { publishedDate: other.publishedDate }) };
    });
  });
  return [...fused.values()]
    .sort((a, b) => b.score - a.score || a.best - b.best || a.list - b.list)
    .slice(0, numResults)
    .map(({ result, sources }) => ({ ...result, sources }));
}
