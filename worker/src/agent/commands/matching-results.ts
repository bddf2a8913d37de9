/** A stored result as pickers show it. */
export interface ResultSummary {
  responseId: string;
  kind: "search" | "fetch";
  label: string;
}

/** The stored results a typed `@…` may name: by the start of their responseId or a word of their label (no query: all, newest first). */
export function matchingResults(results: ResultSummary[], query: string): ResultSummary[] {
  const q = query.trim().toLowerCase().replace(/^@/, "");
  return q === "" ? results : results.filter((r) => r.responseId.startsWith(q) || r.label.toLowerCase().includes(q));
}
