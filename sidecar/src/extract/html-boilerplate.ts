import type { ChildNode, Element } from "domhandler";
import { isElement, isText, textContent, walk } from "./dom.ts";
import { BLOCK_ELEMENTS } from "./html-block-elements.ts";
import type { BlockStats, PageBlocks } from "./html-block-stats.ts";
import { isDateline, MAX_DATELINE_CHARS } from "./html-dateline.ts";
import { isTeaser } from "./html-teasers.ts";
import { plainText } from "./plain-text.ts";
import { oneLine } from "./whitespace.ts";

/**
 * Boilerplate inside the main content: what a reader skips even within the article's column. Link lists
 * (related stories, tags, next/previous) and paragraphs that are only a link, teaser cards around an article,
 * containers named like boilerplate that hold no prose, bylines and datelines, the headline repeated from the
 * title, and headings left with nothing under them.
 */

/** Above this share of link text a block is a list of links, not text. */
const LINK_LIST_DENSITY = 0.5;
/** A paragraph is a bare link when nearly all of it is link text. */
const LINK_PARAGRAPH_DENSITY = 0.8;
/** Containers with this much link text and little prose are link lists too (teasers: a link and a line). */
const LINKY_CONTAINER_DENSITY = 0.25;
/** Containers with this many commas read as prose whatever their links. */
const PROSE_COMMAS = 10;
/** Bylines and author boxes are short; longer text under such a name is content that happens to be named so. */
const MAX_BYLINE_CHARS = 400;
const HEADINGS: Readonly<Record<string, number>> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 };
/** Containers judged as a whole; paragraphs and inline elements are judged by the block they are in. */
const CONTAINERS = new Set(["div", "section", "ul", "ol", "dl", "table", "form", "fieldset", "header", "footer", "aside", "nav", "article", "figure", "center", "details", "menu"]);

/** Teaser cards holding less than this share of the content are not what the page is about. */
const MAX_TEASER_SHARE = 0.5;
/** A headline repeats a title when this share of its words are the title's. */
const HEADLINE_WORDS_IN_TITLE = 0.6;
/** "Related:", "Read more:", "See also:" before a link: a label no longer than this. */
const MAX_LINK_LABEL_CHARS = 40;
/** Labels that stand where an ad was or will be; they are the whole text of their block. */
const AD_LABELS = new Set([
  "ad", "ads", "advert", "advertisement", "advertising", "sponsored", "sponsored content", "anzeige", "werbung",
  "publicidad", "publicité", "pubblicità", "reklama", "story continues below", "story continues below advertisement",
  "article continues below", "article continues below advertisement", "continue reading below", "scroll to continue with content",
]);

/** Blocks that can be a dateline: lines of text, not structures (a list, a table, a quote, a heading hold dates as values). */
const DATELINE_BLOCKS = new Set(["p", "div", "section", "header", "footer", "address", "center"]);

const wordsOf = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** The headline repeats one of the page's titles (reported separately) when most of its words are that title's. */
function repeatsTitle(heading: Element, titles: readonly string[]): boolean {
  const words = wordsOf(textContent(heading));
  if (words.length === 0) return false;
  return titles.some((title) => {
    const known = new Set(wordsOf(title));
    return words.filter((word) => known.has(word)).length >= words.length * HEADLINE_WORDS_IN_TITLE;
  });
}

/** Text before the block's first link ends in a colon: "Related: <link>", "[Read more: <link>]". */
function isLabelledLink(element: Element): boolean {
  let label = "";
  let linked = false;
  walk(element, (node) => {
    if (linked) return false;
    if (isElement(node) && node.name === "a") {
      linked = true;
      return false;
    }
    if (isText(node)) label += node.data;
    return isElement(node);
  });
  const trimmed = oneLine(label).replace(/^[[(]+/, "");
  return linked && trimmed.length <= MAX_LINK_LABEL_CHARS && /[:：]$/.test(trimmed);
}

/** Whether one element is boilerplate; quoted: it is inside a blockquote, where a date is the quote's attribution. */
function isBoilerplate(element: Element, stats: BlockStats, parent: BlockStats | undefined, quoted: boolean): boolean {
  const { chars, linkChars, commas, prose, hint } = stats;
  const linkDensity = chars > 0 ? linkChars / chars : 0;
  const container = CONTAINERS.has(element.name);
  if (hint.byline && chars < MAX_BYLINE_CHARS && (BLOCK_ELEMENTS.has(element.name) || (parent?.ownChars ?? 0) < MAX_BYLINE_CHARS)) return true;
  if (!BLOCK_ELEMENTS.has(element.name)) return false;
  if (chars > 0 && chars <= 40 && AD_LABELS.has(wordsOf(plainText(element)).join(" "))) return true;
  if (chars > 0 && chars <= MAX_DATELINE_CHARS && !quoted && DATELINE_BLOCKS.has(element.name) && isDateline(oneLine(plainText(element)))) return true;
  // A heading that is a link stays (a listing's titles); so does a sentence around a long link, but not a paragraph
  // that is only a link ("Read the report", "Discuss in the forum") or one labelled "Related:".
  if (linkDensity > LINK_LIST_DENSITY) {
    if (HEADINGS[element.name] !== undefined) return false;
    return element.name !== "p" || linkDensity > LINK_PARAGRAPH_DENSITY || isLabelledLink(element);
  }
  if (!container) return false;
  if (hint.weight < 0 && prose < chars / 2) return true;
  if (commas >= PROSE_COMMAS) return false;
  return linkDensity > LINKY_CONTAINER_DENSITY && hint.weight <= 0 && prose < chars / 2;
}

/**
 * Elements inside the main content to leave out, found top-down (a dropped element's subtree is not judged),
 * added to those selection excluded.
 */
export function boilerplateWithin(
  nodes: readonly ChildNode[],
  blocks: PageBlocks,
  titles: readonly string[],
  excluded: readonly Element[],
): Set<Element> {
  const { stats } = blocks;
  // What selection already left out counts as gone: a heading above it is left with nothing.
  const found = new Set<Element>(excluded);
  // The headline is the first h1 or h2, and comes before the article's first paragraph.
  let headlineSeen = false;
  const parents: (BlockStats | undefined)[] = [];
  let quotes = 0;
  const teasers: Element[] = [];
  let teaserChars = 0;
  let openTeaser: Element | undefined;
  let chars = 0;
  for (const top of nodes) {
    if (!isElement(top)) continue;
    chars += stats.get(top)?.chars ?? 0;
    walk(
      top,
      (node) => {
        if (!isElement(node) || found.has(node)) return false;
        const entry = stats.get(node);
        if (!entry) return false;
        const level = HEADINGS[node.name];
        if (level !== undefined && level <= 2 && !headlineSeen && entry.chars > 0) {
          headlineSeen = true;
          if (repeatsTitle(node, titles)) {
            found.add(node);
            return false;
          }
        }
        if (entry.paragraphs > 0 && entry.ownChars > 0) headlineSeen = true;
        if (isBoilerplate(node, entry, parents[parents.length - 1], quotes > 0)) {
          found.add(node);
          return false;
        }
        // A card is still judged inside: if the cards stay (a listing, a thread), their chrome goes.
        if (!openTeaser && isTeaser(node, entry, (element) => stats.get(element))) {
          teasers.push(node);
          teaserChars += entry.chars;
          openTeaser = node;
        }
        if (BLOCK_ELEMENTS.has(node.name)) parents.push(entry);
        if (node.name === "blockquote") quotes++;
        return true;
      },
      (node) => {
        if (!isElement(node)) return;
        if (BLOCK_ELEMENTS.has(node.name)) parents.pop();
        if (node.name === "blockquote") quotes--;
        if (node === openTeaser) openTeaser = undefined;
      },
    );
  }
  // Cards that are most of the content are a listing; a minority are the boxes around an article.
  if (teaserChars < chars * MAX_TEASER_SHARE) for (const teaser of teasers) found.add(teaser);
  dropEmptyHeadings(nodes, blocks, found);
  return found;
}

/** Headings whose section lost everything ("Related stories" above a dropped list) go too. */
function dropEmptyHeadings(nodes: readonly ChildNode[], blocks: PageBlocks, found: Set<Element>): void {
  const open: { element: Element; level: number; filled: boolean }[] = [];
  const close = (level: number): void => {
    while (open.length > 0 && (open[open.length - 1] as { level: number }).level >= level) {
      const heading = open.pop() as { element: Element; filled: boolean };
      if (!heading.filled) found.add(heading.element);
    }
  };
  for (const top of nodes) {
    if (!isElement(top)) continue;
    walk(top, (node) => {
      if (!isElement(node)) return false;
      const entry = blocks.stats.get(node);
      if (!entry || found.has(node)) return false;
      const level = HEADINGS[node.name];
      if (level !== undefined) {
        close(level);
        if (entry.chars > 0) open.push({ element: node, level, filled: false });
        return false;
      }
      if (entry.ownChars > 0 || (entry.images > 0 && node.name === "img")) for (const heading of open) heading.filled = true;
      return true;
    });
  }
  close(0);
}
