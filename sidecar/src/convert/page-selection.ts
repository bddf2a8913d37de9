import { fail, ok, type Result } from "@edge-web/shared";

/** What a document's pages are called in messages. */
export type PageUnit = "page" | "slide" | "sheet";

export interface PageRange {
  first: number;
  last: number;
}

const ITEM = /^(\d+)(?:\s*-\s*(\d+))?$/;

/** Parses a selection like "1-3,7": 1-based page numbers and inclusive ranges, separated by commas. */
export function parsePageSelection(spec: string): Result<PageRange[], "INVALID_INPUT"> {
  const ranges: PageRange[] = [];
  for (const item of spec.split(",")) {
    const match = ITEM.exec(item.trim());
    if (!match) return fail("INVALID_INPUT", `The page selection "${spec}" is not valid: use page numbers and ranges separated by commas, like "1-3,7".`);
    const first = Number(match[1]);
    const last = match[2] === undefined ? first : Number(match[2]);
    if (first === 0 || last === 0) return fail("INVALID_INPUT", `The page selection "${spec}" is not valid: pages are numbered from 1.`);
    if (last < first) return fail("INVALID_INPUT", `The page selection "${spec}" is not valid: the range ${first}-${last} runs backwards.`);
    ranges.push({ first, last });
  }
  return ok(ranges);
}

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
