import type { ExtractedContent } from "@edge-web/shared";
import { contentWindow } from "./content-window.ts";

/**
 * A page's content cut to `maxChars` where get_search_content's windows end (a paragraph break in
 * the last fifth, else a line break, else exactly), with the whole length and how to read on from
 * the stored copy; the page itself when it fits.
 */
export function cutPage<P extends ExtractedContent>(page: P, maxChars: number, stored: { responseId: string; urlIndex: number }): P {
  const window = contentWindow(page.content, 0, maxChars);
  if (window.nextOffset === undefined) return page;
  const totalChars = page.content.length;
  const readOn = JSON.stringify({ ...stored, offset: window.end });
  return {
    ...page,
    content: page.content.slice(0, window.end),
    truncated: true,
    totalChars,
    nextOffset: window.end,
    note: `maxChars cut this page at ${window.end} of ${totalChars} characters. Read on with get_search_content ${readOn} (add maxChars to read a part at a time).`,
  };
}
