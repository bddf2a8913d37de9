import type { ExtractedContent, StoredResult } from "@edge-web/shared";

/**
 * Bounds what one stored result may hold (web.maxStoredContentChars): the page contents share
 * one budget in order; what does not fit is cut and marked truncated.
 */
export function capStoredContent(result: StoredResult, maxChars: number): StoredResult {
  let budget = maxChars;
  const cap = (item: ExtractedContent): ExtractedContent => {
    const keep = Math.min(item.content.length, budget);
    budget -= keep;
    return keep === item.content.length ? item : { ...item, content: item.content.slice(0, keep), truncated: true };
  };
  if (result.kind === "fetch") return { ...result, results: result.results.map(cap) };
  return {
    ...result,
    queries: result.queries.map((q) => ({
      ...q,
      results: q.results.map((r) => (r.content ? { ...r, content: cap(r.content) } : r)),
    })),
  };
}
