import type { AnyNode, Element } from "domhandler";
import { contains, isElement, walk } from "../dom.ts";
import type { PageBlocks } from "./block-stats.ts";
import { isDateline } from "./dateline.ts";
import { plainText } from "../plain-text.ts";
import { oneLine } from "../whitespace.ts";

/**
 * The standfirst of an article whose header stands apart from its body (a cover section, a hero, a header
 * beside the text column): the lines that follow the headline in its header, before the lead picture.
 */

/** A header holds a headline and a line or two; a larger block before the body is a part of the page. */
const MAX_HEADER_SHARE = 0.5;
/** A line of a standfirst is a paragraph, mostly not links, and not a byline, a dateline or a negatively named box. */
const MIN_LINE_CHARS = 25;
const MAX_LINE_LINK_DENSITY = 0.2;
const LINES = new Set(["p", "div", "h2", "h3", "h4", "h5", "h6"]);

/**
 * The lines after the headline in its header, when the header comes before the body's block (its sibling, or a
 * sibling of one of its ancestors) and is small beside it; else nothing.
 */
export function standfirst(headline: Element, body: Element, blocks: PageBlocks): Element[] {
  const { stats } = blocks;
  const bodyStats = stats.get(body);
  // The body and the blocks around it, found once: each is looked up below.
  const aroundBody = new Set<AnyNode>();
  for (let at: AnyNode | null = body; at; at = at.parent) aroundBody.add(at);
  if (!bodyStats || contains(body, headline) || aroundBody.has(headline)) return [];
  // The header: the largest block holding the headline but not the body.
  let header = headline;
  while (header.parent && isElement(header.parent) && !aroundBody.has(header.parent)) header = header.parent;
  const frame = header.parent;
  if (!frame || !isElement(frame)) return [];
  const order = frame.children;
  const branch = order.find((child) => aroundBody.has(child));
  if (!branch || order.indexOf(header) > order.indexOf(branch)) return [];
  const headerStats = stats.get(header);
  if (!headerStats || headerStats.chars > bodyStats.chars * MAX_HEADER_SHARE) return [];
  const lines: Element[] = [];
  let after = false;
  let pictured = false;
  walk(header, (node) => {
    // The standfirst comes before the lead picture; a line after it is its caption.
    if (!isElement(node) || pictured) return false;
    if (after && node.name === "img") {
      pictured = true;
      return false;
    }
    if (node === headline) {
      after = true;
      return false;
    }
    const entry = stats.get(node);
    // A picture's caption is not the standfirst.
    if (!entry || node.name === "figure" || entry.hint.caption) return false;
    if (!after || !LINES.has(node.name) || entry.ownChars < MIN_LINE_CHARS) return true;
    const line = entry.linkChars <= entry.chars * MAX_LINE_LINK_DENSITY && !entry.hint.byline && entry.hint.weight >= 0;
    if (line && !isDateline(oneLine(plainText(node)))) lines.push(node);
    return false;
  });
  return lines;
}
