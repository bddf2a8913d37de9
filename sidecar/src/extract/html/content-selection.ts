import type { ChildNode, Element, ParentNode } from "domhandler";
import { contains, isElement, isPageRoot } from "../dom.ts";
import { HEADING_LEVELS } from "./block-elements.ts";
import { isMetadataLine } from "./dateline.ts";
import { boilerplateWithin } from "./boilerplate.ts";
import { type Landmarks, measureBlocks, type PageBlocks } from "./block-stats.ts";
import { inForumPosting } from "./class-hints.ts";
import { findMainContent } from "./main-content.ts";
import { standfirst } from "./standfirst.ts";
import { topicFrame, topicPosts } from "./topic-posts.ts";
import type { PageInfo } from "./metadata.ts";

/** Nodes to render, and the elements inside them to leave out. */
export interface Rendering {
  nodes: readonly ChildNode[];
  skip: ReadonlySet<Element>;
}

/** The main content when a block clearly is, and the whole readable page (the fallback, and for when main renders empty). */
export interface ContentSelection {
  main?: Rendering;
  page: Rendering;
  /** Whether the page has a paragraph at all: without one there was no main block to look for. */
  hasProse: boolean;
  /** Pictures and their captions. */
  captions: ReadonlyMap<Element, Element>;
  /** Visible characters outside furniture by tag (what is left out by name counted in): bounds the page's text. */
  visibleChars: number;
  /** The reader comments left out (none when they are the page's text). */
  comments: ReadonlySet<Element>;
  /** Whether the main content is the page's one post named as one (see MainContent). */
  post: boolean;
}

/** A main block holding less than this share of the page's prose is not clearly the main block. */
const MIN_PROSE_SHARE = 0.4;

/** Without a clear main block, the smallest block holding this share of the prose is the content (a forum thread). */
const FRAME_PROSE_SHARE = 0.8;
/** An element named like furniture but holding more than this share of the page's text is a layout wrapper (penci_sidebar, menu-open). */
const WRAPPER_SHARE = 0.5;
/** ...and no more than this share of its text is links. */
const MAX_WRAPPER_LINK_SHARE = 0.5;
/**
 * Comment sections are the page's text when the rest of it has less than this share of their prose, and less than
 * this much: a few paragraphs of its own are a post, however long the thread below it.
 */
const MAX_PROSE_BESIDE_DISCUSSION = 0.1;
const MAX_PROSE_CHARS_BESIDE_DISCUSSION = 1000;
/** Wrappers nest; each level found costs one more walk. */
const MAX_WRAPPER_LEVELS = 4;

/**
 * Measures the page, trusting elements that furniture-like names would drop but that hold most of the page's
 * text and are not mostly links, and comment sections when nothing else on the page is prose.
 */
function measurePage(body: ParentNode, landmarks: Landmarks): MeasuredPage {
  const trusted = new Set<Element>();
  const boxes = new Set<Element>();
  let blocks = measureBlocks(body, trusted, landmarks);
  for (let level = 0; level < MAX_WRAPPER_LEVELS; level++) {
    let total = blocks.root.chars;
    for (const chars of blocks.droppedByName.values()) total += chars;
    const wrappers = [...blocks.droppedByName].filter(([element, chars]) => chars > total * WRAPPER_SHARE && !boxes.has(element)).map(([element]) => element);
    if (wrappers.length === 0) break;
    for (const element of wrappers) trusted.add(element);
    blocks = measureBlocks(body, trusted, landmarks);
    // A wrapper holds the article's text; one that is mostly links is the box it is named as, large only beside a
    // tiny post (a sidebar of link lists beside a one-line post).
    const found = wrappers.filter((element) => {
      const entry = blocks.stats.get(element);
      return entry !== undefined && entry.linkChars > entry.chars * MAX_WRAPPER_LINK_SHARE;
    });
    if (found.length === 0) continue;
    for (const element of found) {
      trusted.delete(element);
      boxes.add(element);
    }
    blocks = measureBlocks(body, trusted, landmarks);
  }
  // Replies in a forum topic's item (schema.org's DiscussionForumPosting, typed as its comments), or any comments of a
  // page whose JSON-LD declares it a forum topic, are the thread the page is for: read with who wrote each, as a thread
  // taken as the text is.
  const replies = [...blocks.discussions.keys()].filter((element) => landmarks.forumTopic || inForumPosting(element));
  if (replies.length > 0) {
    for (const element of replies) trusted.add(element);
    blocks = measureBlocks(body, trusted, landmarks);
    return { blocks, trusted, replies };
  }
  // Comments are furniture beside a text; on a page with hardly any prose outside them and no post of its own (a
  // live ticker, a guestbook whose entries are named as comments) they are the text. A post named as one (hentry,
  // entry-content, articleBody) is the page's text however short beside its comments: a picture and its caption.
  // Their characters bound their prose: only pages where the rule could hold are measured again.
  let discussed = 0;
  for (const chars of blocks.discussions.values()) discussed += chars;
  const commentedOn = (blocks.proseBeforeThread ?? 0) > 0;
  let ownProse = blocks.root.prose;
  if (blocks.postBodyChars === 0 && !commentedOn && blocks.root.prose > 0 && discussed > 0) ownProse = postProse(blocks);
  if (blocks.postBodyChars === 0 && !commentedOn && ownProse < Math.min(MAX_PROSE_CHARS_BESIDE_DISCUSSION, discussed * MAX_PROSE_BESIDE_DISCUSSION)) {
    for (const element of blocks.discussions.keys()) trusted.add(element);
    const withDiscussions = measureBlocks(body, trusted, landmarks);
    // Without prose anywhere (a page that is a form), their text is weighed against the rest's.
    const [rest, all] = withDiscussions.root.prose > 0 ? [ownProse, withDiscussions.root.prose] : [blocks.root.chars, withDiscussions.root.chars];
    if (rest < all * MAX_PROSE_BESIDE_DISCUSSION) return { blocks: withDiscussions, trusted, thread: commonAncestor([...blocks.discussions.keys()]) };
  }
  return { blocks, trusted };
}

/** The page's measures, and the thread taken as its text: the smallest element holding all of its entries. */
interface MeasuredPage {
  blocks: PageBlocks;
  /** What the measure trusted that names would leave out: measured again, it is trusted again. */
  trusted: ReadonlySet<Element>;
  thread?: Element;
  /** A forum topic's replies, read as the thread the page is for. */
  replies?: Element[];
}

/** The smallest element holding all of `elements` (the first itself when it holds the rest). */
function commonAncestor(elements: readonly Element[]): Element | undefined {
  let holder: ParentNode | null = elements[0] ?? null;
  for (const element of elements) {
    while (holder && !contains(holder, element)) holder = holder.parent;
  }
  return holder && isElement(holder) ? holder : undefined;
}

/**
 * The prose of the page's own paragraphs, not of its headings or datelines: what could be a post beside a thread. A
 * thread's page has its title over the thread, as long as a short thread's tenth.
 */
function postProse({ stats, root }: PageBlocks): number {
  let prose = root.prose;
  for (const [element, entry] of stats) {
    if (entry.ownChars === 0 || entry.prose === 0) continue;
    if (HEADING_LEVELS[element.name] === undefined && !isMetadataLine(element)) continue;
    // The element's own paragraph: its prose less what its block children brought.
    let own = entry.prose;
    for (const child of element.children) if (isElement(child)) own -= stats.get(child)?.prose ?? 0;
    prose -= own;
  }
  return prose;
}

/**
 * The block the page marks as its main content: the first visible <main> or [role=main], else its only
 * <article> (several are a listing). Used when scoring finds no clear main block (pages with little prose).
 */
function markedMain(blocks: PageBlocks): Element | undefined {
  const articles: Element[] = [];
  for (const element of blocks.stats.keys()) {
    if (element.name === "main" || element.attribs.role === "main") return element;
    if (element.name === "article") articles.push(element);
  }
  return articles.length === 1 ? articles[0] : undefined;
}

/** The smallest ancestor of start holding most of the page's prose: a thread of posts, a page of sections. */
function proseFrame(start: Element, blocks: PageBlocks): Element | undefined {
  for (let element: ParentNode | null = start; element && isElement(element); element = element.parent) {
    const entry = blocks.stats.get(element);
    if (!entry) return undefined;
    // The body itself is no frame: that is the whole page, rendered as such.
    if (entry.prose >= blocks.root.prose * FRAME_PROSE_SHARE) return isPageRoot(element) ? undefined : element;
  }
  return undefined;
}

/**
 * Finds the main content under body: the scored block when it holds a fair share of the page's prose, else
 * the block the page marks as main, else the smallest block holding most of its prose. Without any, only the
 * whole readable page is offered.
 */
export function selectContent(info: PageInfo): ContentSelection {
  const { body, titles } = info;
  const measured = measurePage(body, info);
  const { thread, replies } = measured;
  const found = findMainContent(measured.blocks, (element) => info.holdsHeadline.has(element) || element.name === "h1");
  // A forum topic told by its shape is measured again with its posts read as a thread.
  const posts = found && !thread && !replies ? topicPosts(found.element) : undefined;
  const blocks = posts ? measureBlocks(body, measured.trusted, info, new Set(posts)) : measured.blocks;
  const page = { nodes: body.children, skip: blocks.dropped };
  const hasProse = blocks.root.paragraphs > 0;
  // A thread taken as the page's text is that text whole, not the one entry written in paragraphs (a short issue whose
  // first comment alone is a sentence long).
  // So is a forum topic: its first post with its replies, whatever the post's own body is named, nothing beside them
  // left out as the post's chrome.
  const holder = found && replies ? commonAncestor([found.element, ...replies]) : posts && topicFrame(posts, info.holdsHeadline);
  const topic = holder && !isPageRoot(holder) ? holder : undefined;
  const whole = (thread && found && found.element !== thread && contains(thread, found.element) ? thread : undefined) ?? topic;
  const scored = whole ? { element: whole, prose: blocks.stats.get(whole)?.prose ?? 0, exclude: [], post: false } : found;
  const marked = markedMain(blocks);
  const clear = scored && (scored.post || scored.prose >= blocks.root.prose * MIN_PROSE_SHARE);
  const frame = scored && !clear ? proseFrame(scored.element, blocks) : undefined;
  const chosen = clear ? scored.element : (marked ?? frame);
  // A header apart from the body (a cover, a hero) brings the headline and standfirst.
  const { headline, headlineRepeatsTitle } = info;
  const lead = clear && headline && headlineRepeatsTitle ? standfirst(headline, scored.element, blocks) : [];
  const nodes = chosen && [...lead, chosen];
  const { captions } = blocks;
  let visibleChars = blocks.root.chars;
  for (const chars of blocks.droppedByName.values()) visibleChars += chars;
  for (const chars of blocks.discussions.values()) visibleChars += chars;
  const comments = new Set(blocks.discussions.keys());
  if (!nodes) return { page, hasProse, captions, visibleChars, comments, post: false };
  const skip = boilerplateWithin(nodes, blocks, info, clear ? scored.exclude : []);
  for (const element of blocks.dropped) skip.add(element);
  return { main: { nodes, skip }, page, hasProse, captions, visibleChars, comments, post: scored?.post === true };
}
