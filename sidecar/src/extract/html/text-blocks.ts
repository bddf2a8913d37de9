import type { Element, ParentNode } from "domhandler";
import { isElement, isText, walk } from "../dom.ts";
import { BLOCK_ELEMENTS } from "./block-elements.ts";
import { isFurniture, isHidden } from "./visibility.ts";
import { readsAsTitle, type TitleWords } from "../repeats-title.ts";
import { isHtmlSpace } from "../whitespace.ts";

/**
 * The second, independent method: the page read as a sequence of text blocks (the runs of inline text between
 * block boundaries and line breaks), each judged by its length and link density alone, the shallow text features
 * of Kohlschütter et al. (Boilerpipe); the article is the longest stretch of text blocks in reading order. It
 * knows nothing of class names or scores of containers, so it fails where the main method does not: table
 * layouts, text split by <br>s, article text under a furniture-like name, an article whose container scores low.
 */

export interface TextBlock {
  /** The block element the text is in. */
  element: Element;
  chars: number;
  linkChars: number;
  /** Whether the block ends as a sentence does. */
  sentence: boolean;
  content: boolean;
}

export interface TextRegion {
  /** Elements to render, in order. */
  nodes: Element[];
  /** Elements under them that hold nothing of the region. */
  skip: Set<Element>;
  /** Characters of the region's content blocks. */
  chars: number;
  /** Whether it is the stretch that follows the headline. */
  anchored: boolean;
}

/** A block this long with few links is text. */
const MIN_TEXT_CHARS = 80;
/** Shorter blocks are text when they end as a sentence and follow text (a one-line paragraph of the article). */
const MIN_SENTENCE_CHARS = 25;
/** Above this share of link text a block is navigation or a teaser. */
const MAX_TEXT_LINK_DENSITY = 0.33;
/** A stretch of text goes on over this many characters of other blocks (a dateline, a caption, an ad label). */
const MAX_GAP_CHARS = 120;
/** A headline is no longer than this. */
const MAX_TITLE_CHARS = 200;

/** The text after the headline starts within this many characters of other blocks (a byline, a dateline, a picture's caption). */
const MAX_LEAD_GAP_CHARS = 300;
const SECTIONING = new Set(["article", "aside", "main", "nav", "section"]);
const SENTENCE_END = /[.!?。！？:;"'»”’)]$/;

export interface PageText {
  blocks: TextBlock[];
  /** The index of the first block after the headline (the blocks' length when there is none). */
  afterHeadline: number;
}

/**
 * The page's text blocks in reading order, and where its headline ends; hidden elements, furniture by tag (nav,
 * aside, forms, the page's header and footer) and the elements in leftOut (reader comments) are left out.
 */
export function textBlocks(body: ParentNode, headline: Element | undefined, titles: readonly TitleWords[], leftOut: ReadonlySet<Element> = new Set()): PageText {
  const blocks: TextBlock[] = [];
  let afterHeadline = -1;
  // Without a headline element, the first short block that reads as the declared title is the headline.
  let line = "";
  const owners: Element[] = [];
  let links = 0;
  let sections = 0;
  let mains = 0;
  let open: TextBlock | undefined;
  let last = "";
  const close = (): void => {
    if (open && open.chars > 0) {
      open.sentence = SENTENCE_END.test(last.trimEnd());
      blocks.push(open);
      if (!headline && afterHeadline < 0 && open.chars <= MAX_TITLE_CHARS && readsAsTitle(line, titles)) afterHeadline = blocks.length;
    }
    open = undefined;
    last = "";
    line = "";
  };
  walk(
    body,
    (node) => {
      if (isText(node)) {
        const owner = owners.at(-1);
        if (!owner) return false;
        open ??= { element: owner, chars: 0, linkChars: 0, sentence: false, content: false };
        let chars = 0;
        for (let i = 0; i < node.data.length; i++) if (!isHtmlSpace(node.data.charCodeAt(i))) chars++;
        open.chars += chars;
        if (links > 0) open.linkChars += chars;
        if (chars > 0) last = node.data;
        if (!headline && afterHeadline < 0 && line.length <= MAX_TITLE_CHARS) line += node.data;
        return false;
      }
      if (!isElement(node)) return false;
      if (isHidden(node) || isFurniture(node, sections > 0, sections > mains) || leftOut.has(node)) return false;
      if (SECTIONING.has(node.name)) sections++;
      if (node.name === "main") mains++;
      if (node.name === "br") {
        close();
        return false;
      }
      if (BLOCK_ELEMENTS.has(node.name)) {
        close();
        owners.push(node);
      }
      if (node.name === "a" && node.attribs.href !== undefined) links++;
      return true;
    },
    (node) => {
      if (!isElement(node)) return;
      if (node.name === "a" && node.attribs.href !== undefined) links--;
      if (SECTIONING.has(node.name)) sections--;
      if (node.name === "main") mains--;
      if (BLOCK_ELEMENTS.has(node.name)) {
        close();
        owners.pop();
      }
      if (node === headline) {
        close();
        afterHeadline = blocks.length;
      }
    },
  );
  close();
  let previous = false;
  for (const block of blocks) {
    const linked = block.linkChars > block.chars * MAX_TEXT_LINK_DENSITY;
    block.content = !linked && (block.chars >= MIN_TEXT_CHARS || (previous && block.sentence && block.chars >= MIN_SENTENCE_CHARS));
    previous = block.content;
  }
  return { blocks, afterHeadline: afterHeadline < 0 ? blocks.length : afterHeadline };
}

/** Characters of text blocks: what the page has to say, by this method's measure. */
export function textChars(blocks: readonly TextBlock[]): number {
  let chars = 0;
  for (const block of blocks) if (block.content) chars += block.chars;
  return chars;
}

interface Stretch {
  first: number;
  last: number;
  chars: number;
}

/** The stretches of text blocks, each going on over short gaps of other blocks. */
function stretches(blocks: readonly TextBlock[]): Stretch[] {
  const found: Stretch[] = [];
  let current: Stretch | undefined;
  let gap = 0;
  for (const [index, block] of blocks.entries()) {
    if (block.content) {
      if (current && gap <= MAX_GAP_CHARS) {
        current.last = index;
        current.chars += block.chars;
      } else {
        current = { first: index, last: index, chars: block.chars };
        found.push(current);
      }
      gap = 0;
    } else if (current) {
      gap += block.chars;
    }
  }
  return found;
}

function ancestorsOf(element: Element, until: ParentNode | null): Element[] {
  const chain: Element[] = [];
  for (let node: ParentNode | null = element; node && node !== until && isElement(node); node = node.parent) chain.push(node);
  return chain;
}

/** The lowest element holding both a and b. */
function commonAncestor(a: Element, b: Element): Element {
  const chain = new Set(ancestorsOf(a, null));
  for (let node: ParentNode | null = b; node && isElement(node); node = node.parent) if (chain.has(node)) return node;
  return a;
}

/**
 * The article by this method: the stretch of text with the most characters, or, when the page's headline is given
 * and a stretch of sentences follows it, that stretch when it has at least minAnchoredShare of the longest's text
 * (a short article above a long comment thread). Undefined when the page has no text block.
 */
export function textRegion({ blocks, afterHeadline }: PageText, minAnchoredShare: number): TextRegion | undefined {
  const found = stretches(blocks);
  let best: Stretch | undefined;
  for (const stretch of found) if (!best || stretch.chars > best.chars) best = stretch;
  if (!best) return undefined;
  const anchored = anchoredStretch(blocks, afterHeadline, found);
  let isAnchored = anchored === best;
  if (anchored && anchored !== best && anchored.chars >= best.chars * minAnchoredShare && holdsSentences(blocks, anchored)) {
    best = anchored;
    isAnchored = true;
  }
  const first = blocks[best.first] as TextBlock;
  const last = blocks[best.last] as TextBlock;
  const root = commonAncestor(first.element, last.element);
  const keep = new Set<Element>();
  for (let index = best.first; index <= best.last; index++) {
    const block = blocks[index] as TextBlock;
    if (block.content) for (const element of ancestorsOf(block.element, root.parent)) keep.add(element);
  }
  const skip = new Set<Element>();
  walk(root, (node) => {
    if (!isElement(node)) return false;
    if (keep.has(node)) return true;
    if (BLOCK_ELEMENTS.has(node.name)) {
      skip.add(node);
      return false;
    }
    return true;
  });
  return { nodes: [root], skip, chars: best.chars, anchored: isAnchored };
}

/** The stretch of text that follows the headline closely (after a byline, a dateline, a caption at most). */
function anchoredStretch(blocks: readonly TextBlock[], afterHeadline: number, found: readonly Stretch[]): Stretch | undefined {
  const anchored = found.find(({ first }) => first >= afterHeadline);
  let lead = 0;
  for (let index = afterHeadline; anchored && index < anchored.first; index++) lead += blocks[index]?.chars ?? 0;
  return lead <= MAX_LEAD_GAP_CHARS ? anchored : undefined;
}

/** The text blocks of the stretch that follows the headline closely; none when there is no such stretch. */
export function headlineText({ blocks, afterHeadline }: PageText): TextBlock[] {
  const anchored = anchoredStretch(blocks, afterHeadline, stretches(blocks));
  return anchored ? blocks.slice(anchored.first, anchored.last + 1).filter((block) => block.content) : [];
}

/** Whether a stretch is sentences: most of its text in blocks that end as sentences do. */
function holdsSentences(blocks: readonly TextBlock[], stretch: Stretch): boolean {
  let sentences = 0;
  for (let index = stretch.first; index <= stretch.last; index++) {
    const block = blocks[index] as TextBlock;
    if (block.content && block.sentence) sentences += block.chars;
  }
  return sentences >= stretch.chars / 2;
}
