import type { FoundPassage } from "@edge-web/shared";
import { pairSafe } from "./cap-content.ts";
import type { FindPattern } from "./find-pattern.ts";

export const FIND_CONTEXT_CHARS = 300;
export const FIND_MAX_MATCHES = 100;
export const FIND_MAX_SCANNED_CHARS = 1_000_000;

/** A page `find` searches and where it came from (`urlIndex`, or `queryIndex` and `resultIndex`). */
export interface FindPage {
  at: Pick<FoundPassage, "urlIndex" | "queryIndex" | "resultIndex">;
  url: string;
  content: string;
}

export interface FoundPassages {
  matchCount: number;
  passages: FoundPassage[];
  capped?: "matches" | "maxChars" | "scan";
  /** Where searching on would resume, in the page it stopped in (when capped). */
  resumeAt?: number;
}

type Stop = { capped: NonNullable<FoundPassages["capped"]>; resumeAt: number };

/**
 * The passages around `pattern`'s matches in `pages`, in order: 300 characters either side of
 * each match, merged when they touch. Stops after 100 matches, when the passages' text would pass
 * `maxChars` (the first passage is cut to fit instead), or after 1,000,000 characters scanned.
 * A phrase is searched in the whole text; a regex one line at a time (so it cannot backtrack
 * across a whole page). Zero-length matches are skipped.
 */
export function findPassages(pages: FindPage[], pattern: FindPattern, from: number, maxChars: number): FoundPassages {
  const passages: FoundPassage[] = [];
  let matchCount = 0;
  let budget = maxChars;
  let scanLeft = FIND_MAX_SCANNED_CHARS;
  let lastPage: FindPage | undefined;

  const take = (page: FindPage, index: number, length: number): Stop | undefined => {
    if (matchCount >= FIND_MAX_MATCHES) return { capped: "matches", resumeAt: index };
    const text = page.content;
    let start = pairSafe(text, Math.max(0, index - FIND_CONTEXT_CHARS));
    let end = pairSafe(text, Math.min(text.length, index + length + FIND_CONTEXT_CHARS));
    const last = passages.at(-1);
    if (last && lastPage === page && start <= last.end) {
      const grow = Math.max(0, end - last.end);
      if (grow > budget) return { capped: "maxChars", resumeAt: index };
      budget -= grow;
      last.end = Math.max(last.end, end);
      last.text = text.slice(last.offset, last.end);
      last.matches.push({ offset: index, length });
      matchCount++;
      return undefined;
    }
    let stop: Stop | undefined;
    if (end - start > budget) {
      if (passages.length > 0) return { capped: "maxChars", resumeAt: index };
      start = pairSafe(text, Math.max(start, index - Math.floor(Math.max(0, budget - length) / 2)));
      end = Math.max(start + 1, pairSafe(text, Math.min(end, start + budget)));
      stop = { capped: "maxChars", resumeAt: index + Math.max(length, 1) };
    }
    budget -= end - start;
    lastPage = page;
    passages.push({ ...page.at, url: page.url, offset: start, end, text: text.slice(start, end), matches: [{ offset: index, length }] });
    matchCount++;
    return stop;
  };

  let stop: Stop | undefined;
  for (const page of pages) {
    for (const [segStart, segEnd] of segments(page.content, from, pattern.perLine)) {
      const length = segEnd - segStart;
      if (length > scanLeft) {
        stop = { capped: "scan", resumeAt: segStart };
        break;
      }
      scanLeft -= length + 1;
      stop = eachMatch(page.content.slice(segStart, segEnd), pattern.regex, (index, size) => take(page, segStart + index, size));
      if (stop) break;
    }
    if (stop) break;
  }
  return { matchCount, passages, ...(stop && { capped: stop.capped, resumeAt: stop.resumeAt }) };
}

/** The ranges searched: the rest of the text from `from`, or each of its lines. */
function segments(text: string, from: number, perLine: boolean): Array<[number, number]> {
  if (!perLine) return [[from, text.length]];
  const ranges: Array<[number, number]> = [];
  for (let start = from; start <= text.length; ) {
    const newline = text.indexOf("\n", start);
    const end = newline === -1 ? text.length : newline;
    ranges.push([start, end]);
    start = end + 1;
  }
  return ranges;
}

function eachMatch(segment: string, regex: RegExp, visit: (index: number, length: number) => Stop | undefined): Stop | undefined {
  regex.lastIndex = 0;
  for (let match = regex.exec(segment); match; match = regex.exec(segment)) {
    if (match[0] === "") {
      regex.lastIndex++;
      continue;
    }
    const stop = visit(match.index, match[0].length);
    if (stop) return stop;
  }
  return undefined;
}
