import type { Element } from "domhandler";
import { contains, isElement } from "../dom.ts";
import { BLOCK_ELEMENTS, HEADING_LEVELS } from "./block-elements.ts";
import { type BlockStats, onlyPost, type PageBlocks } from "./block-stats.ts";

/** The page's main block. */
export interface MainContent {
  element: Element;
  /** Prose characters in it. */
  prose: number;
  /** Parts of it that are not the article: what follows the body in its frame, the chrome around the lead. */
  exclude: Element[];
  /**
   * Whether it is the page's one post named as such: chosen over a better-scoring box beside it, or chosen inside it
   * holding most of its prose. Such a block is the page's text however small a share of the page's prose it holds.
   */
  post: boolean;
}

/** What a container's tag says before its text is read (Readability's weights). */
const TAG_WEIGHT: Readonly<Record<string, number>> = {
  div: 5, article: 10, main: 10, section: 2, pre: 3, td: 3, blockquote: 3,
  address: -3, ol: -3, ul: -3, dl: -3, dd: -3, dt: -3, li: -3, form: -3,
  h1: -5, h2: -5, h3: -5, h4: -5, h5: -5, h6: -5, th: -5,
};
/**
 * Widening to a parent is worth it when what the parent adds is mostly content (prose, or structure such as
 * headings and a product's specifications) and a real part of it (the rest of a body split by an ad slot or
 * into sections), not a teaser's summary line; or when it adds almost nothing (a wrapper, whose extras are
 * then left out).
 */
const MIN_ADDED_CONTENT_SHARE = 0.5;
const MIN_ADDED_CONTENT_GROWTH = 0.25;
const NEGLIGIBLE_ADDED_SHARE = 0.05;
/**
 * What a parent adds is a listing, not more of the text, when it has a linked line for every this many characters
 * of prose it adds: teasers (a linked headline and its summary line), link ads with their blurbs.
 */
const MIN_ADDED_PROSE_PER_LINKED_LINE = 250;
/**
 * The best-scoring container is narrowed to the child with its text when the rest is a listing of at least
 * MIN_LISTING_LINES linked lines with a summary of at most one sentence each (teasers beside a story in its column,
 * link ads with their blurbs): the summaries score as paragraphs, and the container's name may add to them.
 */
const MIN_LISTING_LINES = 3;
/** A summary of one sentence: under this many characters of prose a linked line. */
const MAX_SUMMARY_PER_LINKED_LINE = 150;
/**
 * What stands before the body in its frame (headline, standfirst, dateline) is its lead when it is small
 * beside the body and hardly linked; only its prose and headings are kept.
 */
const MAX_LEAD_SHARE = 0.5;
const MAX_LEAD_LINK_DENSITY = 0.2;
/** The page's one named post is its text when it holds at least this share of the best-scoring block's prose. */
const MIN_POST_PROSE_SHARE = 0.25;
/** A block chosen inside the page's one named post is the post's text when it holds at least this share of its prose. */
const MIN_POST_PROSE_HELD = 0.5;
/** The lead is looked for this many levels above the body at most (headline, standfirst, picture, dateline wrappers). */
const MAX_LEAD_LEVELS = 3;
const CONTENT_ELEMENTS = new Set(["p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "table", "pre", "blockquote", "figure"]);
const FIGURE = new Set(["figure", "figcaption"]);

const contentOf = (stats: BlockStats): number => stats.prose + stats.structured;
/**
 * Whether what outer holds beside inner is a listing with summaries: prose, but under maxProsePerLine characters of it
 * for each linked line it adds (a teaser's headline and its summary line, a link ad and its blurb).
 */
function addsListing(outer: BlockStats, inner: BlockStats, maxProsePerLine: number, minLines = 1): boolean {
  const linkedLines = outer.linkedLines - inner.linkedLines;
  const prose = outer.prose - inner.prose;
  return linkedLines >= minLines && prose > 0 && prose < linkedLines * maxProsePerLine;
}
const linkDensity = (stats: BlockStats): number => (stats.chars > 0 ? stats.linkChars / stats.chars : 0);

function candidateScore(element: Element, stats: BlockStats): number {
  return (stats.score + (TAG_WEIGHT[element.name] ?? 0) + stats.hint.weight) * (1 - linkDensity(stats));
}

interface Sum {
  chars: number;
  linkChars: number;
}

/** Measures of the measured children of parent on one side of branch. */
function sideOf(parent: Element, branch: Element, before: boolean, stats: PageBlocks["stats"]): { elements: Element[]; sum: Sum } {
  const elements: Element[] = [];
  const sum: Sum = { chars: 0, linkChars: 0 };
  const index = parent.children.indexOf(branch);
  const children = before ? parent.children.slice(0, index) : parent.children.slice(index + 1);
  for (const child of children) {
    const entry = isElement(child) ? stats.get(child) : undefined;
    if (!entry || !isElement(child)) continue;
    elements.push(child);
    sum.chars += entry.chars;
    sum.linkChars += entry.linkChars;
  }
  return { elements, sum };
}

/**
 * In a lead, the blocks that hold neither prose nor a heading (datelines, bylines, labels), and the lead
 * picture with its caption.
 */
function leadChrome(elements: readonly Element[], stats: PageBlocks["stats"], out: Element[]): void {
  for (const element of elements) {
    const entry = stats.get(element);
    // In a thread that is the page's text, the lead is the first entry's author and date, judged as every entry's are.
    if (!entry || HEADING_LEVELS[element.name] !== undefined || entry.inThread) continue;
    if (entry.prose === 0 || FIGURE.has(element.name) || entry.hint.byline) {
      if (BLOCK_ELEMENTS.has(element.name) || entry.images === 0) out.push(element);
      continue;
    }
    // A paragraph is kept whole; a container is judged child by child.
    if (entry.ownChars === 0) leadChrome(element.children.filter(isElement), stats, out);
  }
}

/** The child of top holding the most prose, while what top holds beside it is a listing (see MIN_LISTING_LINES). */
function narrowedToText(top: Element, stats: PageBlocks["stats"]): Element {
  for (;;) {
    const topStats = stats.get(top) as BlockStats;
    let text: Element | undefined;
    let textStats: BlockStats | undefined;
    for (const child of top.children) {
      if (!isElement(child)) continue;
      const childStats = stats.get(child);
      if (childStats && childStats.prose > (textStats?.prose ?? 0)) {
        text = child;
        textStats = childStats;
      }
    }
    // A paragraph (text of its own) is a part of the text, not a container of it. Without summaries, the lines added
    // nothing to the container's score.
    if (!text || !textStats || textStats.ownChars > 0 || !addsListing(topStats, textStats, MAX_SUMMARY_PER_LINKED_LINE, MIN_LISTING_LINES)) return top;
    top = text;
  }
}

/**
 * The best-scoring container, widened to the ancestors that add mostly content, then framed with its lead (up
 * to the headline); undefined when no paragraph scored. Scoring finds where paragraphs concentrate
 * (Readability's measure); widening recovers an article whose paragraphs sit in several sibling blocks, and
 * stops before the page's menus, teasers and footers.
 */
export function findMainContent(blocks: PageBlocks, holdsHeadline: (element: Element) => boolean): MainContent | undefined {
  const { stats } = blocks;
  let top: Element | undefined;
  let topScore = 0;
  for (const [element, entry] of stats) {
    if (entry.score <= 0) continue;
    const score = candidateScore(element, entry);
    if (!top || score > topScore) {
      top = element;
      topScore = score;
    }
  }
  if (!top) return undefined;
  // A page with one post named as one (hentry, entry-content, articleBody) is about that post, however short beside a
  // box that scores better (a sidebar's about-me text beside a one-line post), if it holds a fair part of that box's prose.
  const post = onlyPost(blocks);
  const postProse = post ? (stats.get(post)?.prose ?? 0) : 0;
  if (post && !contains(post, top) && !contains(top, post) && postProse >= (stats.get(top)?.prose ?? 0) * MIN_POST_PROSE_SHARE) {
    return { element: post, prose: postProse, exclude: [], post: true };
  }
  top = narrowedToText(top, stats);
  let current = stats.get(top) as BlockStats;
  const exclude: Element[] = [];
  let leadLevels = 0;
  let lead = 0;
  // Inside a post named as one (hentry, entry-content, articleBody), the text does not go on past the post; nor from a
  // block around the post's named body (a post's frame: its title, its body and a line after it), which is the post.
  const start = top;
  let inPost = current.hint.postBody || blocks.posts.some((named) => named !== start && contains(start, named) && (stats.get(named)?.prose ?? 0) >= current.prose / 2);
  for (let parent = top.parent; parent && isElement(parent); parent = parent.parent) {
    const parentStats = stats.get(parent);
    if (!parentStats) break;
    const pastPost = inPost && !parentStats.hint.postBody;
    inPost ||= parentStats.hint.postBody;
    const addedChars = parentStats.chars - current.chars;
    const addedContent = contentOf(parentStats) - contentOf(current);
    const negligible = addedChars <= current.chars * NEGLIGIBLE_ADDED_SHARE;
    const listing = addsListing(parentStats, current, MIN_ADDED_PROSE_PER_LINKED_LINE);
    const moreContent =
      !listing && addedContent >= addedChars * MIN_ADDED_CONTENT_SHARE && addedContent >= contentOf(current) * MIN_ADDED_CONTENT_GROWTH;
    if (leadLevels === 0 && !pastPost && (negligible || moreContent)) {
      // What a wrapper adds beside the body is its chrome (a share bar, a dateline, "no comments yet"), unless it
      // is content by its kind (a paragraph, heading, list, table, quote, code or figure) or prose before the
      // body (a standfirst); prose after it is a prompt or a promo. In a thread, what stands before an entry's body is
      // its author and date, judged as every entry's are.
      if (negligible) {
        for (const before of [true, false]) {
          for (const sibling of sideOf(parent, top, before, stats).elements) {
            const entry = stats.get(sibling);
            // A figure's picture is what its caption (chosen for a name like "text") describes.
            const picture = parent.name === "figure" && (entry?.images ?? 0) > 0;
            if (!CONTENT_ELEMENTS.has(sibling.name) && !picture && (!before || (!entry?.inThread && (entry?.prose ?? 0) === 0))) exclude.push(sibling);
          }
        }
      }
      top = parent;
      current = parentStats;
      continue;
    }
    // Past the body, the frame grows only by what comes before it, up to the headline.
    const before = sideOf(parent, top, true, stats);
    const { sum } = before;
    lead += sum.chars;
    if (lead > current.chars * MAX_LEAD_SHARE || sum.linkChars > sum.chars * MAX_LEAD_LINK_DENSITY) break;
    leadChrome(before.elements, stats, exclude);
    exclude.push(...sideOf(parent, top, false, stats).elements);
    top = parent;
    leadLevels++;
    if (holdsHeadline(top) || leadLevels >= MAX_LEAD_LEVELS) break;
  }
  // Chosen inside the page's one named post and holding most of its prose, the block is that post's text: the page says
  // so, however little of the page's prose it is beside boxes and sidebars (a short post).
  const isPost = post !== undefined && contains(post, start) && current.prose >= postProse * MIN_POST_PROSE_HELD;
  return { element: top, prose: current.prose, exclude, post: isPost };
}
