import type { Element } from "domhandler";
import type { BlockStats } from "./block-stats.ts";

/**
 * A teaser card: a small container whose heading is a link to another page, with at most a summary line
 * and a "more" link beside it. Cards are the whole of a listing, but inside an article they are the
 * "more on this topic" boxes around it.
 */

/** A card holds a headline and a summary; a longer container is a section of the page. */
const MAX_TEASER_CHARS = 500;
/** A heading is a link when nearly all its text is. */
const LINKED_HEADING_SHARE = 0.9;
const CARDS = new Set(["div", "section", "article", "li", "aside"]);

export function isTeaser(element: Element, stats: BlockStats, statsOf: (element: Element) => BlockStats | undefined): boolean {
  if (!CARDS.has(element.name) || stats.chars === 0 || stats.chars > MAX_TEASER_CHARS || stats.linkChars === 0) return false;
  const headingStats = stats.heading && statsOf(stats.heading);
  return headingStats !== undefined && headingStats.chars > 0 && headingStats.linkChars >= headingStats.chars * LINKED_HEADING_SHARE;
}
