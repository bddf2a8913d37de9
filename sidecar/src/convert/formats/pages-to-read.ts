import { fail, ok, type Result } from "@edge-web/shared";
import { type PageRange, parsePageSelection } from "./parse-page-selection.ts";

/** What a document's pages are called in messages. */
export type PageUnit = "page" | "slide" | "sheet" | "chapter";

/**
 * The page numbers to read, ascending and without repeats: the selection (all pages without one) cut to the
 * document's pages, then to the first maxPages of them. Pages past the end are ignored; a selection that
 * names none of the document's pages is invalid.
 */
export function pagesToRead(
  spec: string | undefined,
  total: number,
  maxPages: number,
  unit: PageUnit,
): Result<{ numbers: number[]; truncated: boolean }, "INVALID_INPUT"> {
  const parsed = spec === undefined ? ok([{ first: 1, last: total }]) : parsePageSelection(spec);
  if (!parsed.ok) return parsed;
  // Merged and cut to the document first, so a range like 1-1000000000 (or a document claiming a million pages) costs nothing.
  const ranges = parsed.value
    .map(({ first, last }) => ({ first, last: Math.min(last, total) }))
    .filter(({ first, last }) => first <= last)
    .sort((a, b) => a.first - b.first);
  const merged: PageRange[] = [];
  for (const range of ranges) {
    const previous = merged[merged.length - 1];
    if (previous && range.first <= previous.last + 1) previous.last = Math.max(previous.last, range.last);
    else merged.push({ ...range });
  }
  if (merged.length === 0 && total > 0) {
    return fail("INVALID_INPUT", `The document has ${total} ${unit}${total === 1 ? "" : "s"}; the selection "${spec}" names none of them.`);
  }
  const numbers: number[] = [];
  let selected = 0;
  for (const { first, last } of merged) {
    selected += last - first + 1;
    for (let page = first; page <= last && numbers.length < maxPages; page++) numbers.push(page);
  }
  return ok({ numbers, truncated: selected > numbers.length });
}
