import { pairSafe } from "./cap-content.ts";

export interface ContentWindow {
  offset: number;
  end: number;
  nextOffset?: number;
}

/**
 * The window of `text` from `offset` holding at most `maxChars` characters. A window that stops
 * short of the end ends after the last blank line (paragraph break) in its final fifth, else after
 * the last line break there, else at `maxChars`; never between the halves of a surrogate pair (an
 * offset there starts at the pair). A window always holds at least one whole character, so paging
 * by `nextOffset` ends.
 */
export function contentWindow(text: string, offset: number, maxChars: number): ContentWindow {
  const start = pairSafe(text, offset);
  const hardEnd = start + maxChars;
  if (hardEnd >= text.length) return { offset: start, end: text.length };
  const near = start + Math.floor(maxChars * 0.8);
  const paragraph = text.lastIndexOf("\n\n", hardEnd - 2);
  const line = text.lastIndexOf("\n", hardEnd - 1);
  let end = paragraph >= near ? paragraph + 2 : line >= near ? line + 1 : pairSafe(text, hardEnd);
  if (end <= start) end = start + 2; // maxChars 1 at a surrogate pair: the whole pair
  return { offset: start, end, nextOffset: end };
}
