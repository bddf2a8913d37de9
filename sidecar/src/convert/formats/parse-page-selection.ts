import { fail, ok, type Result } from "@edge-web/shared";

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
