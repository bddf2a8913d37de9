/** A stored result as pickers label it. */
export interface ResultLabel {
  responseId: string;
  kind: "search" | "fetch";
  label: string;
}

/** The stored results a typed `@…` may name: by the start of their responseId or a word of their label (no query: all, newest first). */
export function matchingResults(results: ResultLabel[], query: string): ResultLabel[] {
  const q = query.trim().toLowerCase().replace(/^@/, "");
  return q === "" ? results : results.filter((r) => r.responseId.startsWith(q) || r.label.toLowerCase().includes(q));
}
