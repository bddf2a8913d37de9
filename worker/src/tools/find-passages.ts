import type { FoundPassage } from "@edge-web/shared";
import { pairSafe } from "./cap-content.ts";
import type { FindPattern } from "./find-pattern.ts";

export const FIND_CONTEXT_CHARS = 300;
export const FIND_MAX_MATCHES = 100;
/**
 * A search's work budget in steps, a step being one character scanned by one step of the compiled
 * pattern (RE2's cost is at most text × program). About 0.4 s of CPU at the slowest rate measured
 * (~40 steps per µs); a search stops there with `capped: "scan"`, so one call cannot hold the
 * session object's thread, which every session of the isolate shares.
 */
export const FIND_MAX_WORK = 16_000_000;
/** Steps between yields of the thread, ~25 ms at the slowest rate: other requests run in between. */
const SLICE_WORK = 1_000_000;
/** Steps per character beyond the program's size: the matcher's own per-character cost. */
const STEP_OVERHEAD = 8;
/** A long line (or a phrase's whole text) is searched in windows overlapping by this much. */
const WINDOW_OVERLAP = 500;

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

/** When a search must stop whatever its budget says: past `stopAt` (epoch ms) or once `signal` fires. */
export interface FindUntil {
  stopAt: number;
  signal?: AbortSignal;
}

type Stop = { capped: NonNullable<FoundPassages["capped"]>; resumeAt: number };

/**
 * The passages around `pattern`'s matches in `pages`, in order: 300 characters either side of
 * each match, merged when they touch. Stops after 100 matches, when the passages' text would pass
 * `maxChars` (the first passage is cut to fit instead), once FIND_MAX_WORK is spent, or at `until`.
 * A phrase is searched in the whole text; a regex one line at a time. Text is matched in windows
 * of at most SLICE_WORK steps, and the thread is yielded between slices. Zero-length matches are
 * skipped.
 */
export async function findPassages(pages: FindPage[], pattern: FindPattern, from: number, maxChars: number, until: FindUntil): Promise<FoundPassages> {
  const passages: FoundPassage[] = [];
  let matchCount = 0;
  let budget = maxChars;
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

  const perChar = pattern.regex.programSize() + STEP_OVERHEAD;
  const windowChars = Math.max(2 * WINDOW_OVERLAP, Math.floor(SLICE_WORK / perChar));
  let workLeft = FIND_MAX_WORK;
  let sliceLeft = SLICE_WORK;
  const matcher = pattern.regex.matcher("");
  const result = (stop?: Stop): FoundPassages => ({ matchCount, passages, ...(stop && { capped: stop.capped, resumeAt: stop.resumeAt }) });

  for (const page of pages) {
    for (const [segStart, segEnd] of segments(page.content, from, pattern.perLine)) {
      // Matches are taken from where the last one ended, so overlapping windows answer none twice.
      let acceptFrom = segStart;
      for (let windowStart = segStart; ; ) {
        const windowEnd = windowStart + windowChars >= segEnd ? segEnd : pairSafe(page.content, windowStart + windowChars);
        const work = (windowEnd - windowStart + 1) * perChar;
        if (work > workLeft) return result({ capped: "scan", resumeAt: windowStart });
        // A slice always takes its first window, so every call gets on by one window at least.
        if (work > sliceLeft && sliceLeft < SLICE_WORK) {
          await new Promise((resolve) => setTimeout(resolve, 0));
          if (Date.now() >= until.stopAt || until.signal?.aborted) return result({ capped: "scan", resumeAt: windowStart });
          sliceLeft = SLICE_WORK;
        }
        workLeft -= work;
        sliceLeft -= work;
        // Matches starting in the overlap are left to the next window, which sees them whole.
        const acceptBefore = windowEnd === segEnd ? segEnd + 1 : windowEnd - WINDOW_OVERLAP;
        matcher.resetMatcherInput(page.content.slice(windowStart, windowEnd));
        while (matcher.find()) {
          const index = windowStart + matcher.start();
          if (index >= acceptBefore) break;
          const length = matcher.end() - matcher.start();
          if (length === 0 || index < acceptFrom) continue;
          const stop = take(page, index, length);
          if (stop) return result(stop);
          acceptFrom = index + length;
        }
        if (windowEnd === segEnd) break;
        // From the last match's end when it reaches into the overlap, so the matcher starts where one could.
        windowStart = pairSafe(page.content, Math.max(acceptBefore, acceptFrom));
      }
    }
  }
  return result();
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
