import type { ChildNode, Element, ParentNode } from "domhandler";
import { closestWithin, contains, findElement, isElement, isText, walk } from "../dom.ts";
import { BLOCK_ELEMENTS, BOLD_ELEMENTS, HEADING_LEVELS } from "./block-elements.ts";
import { type ClassHint, classHint, marksComments, NO_HINT } from "./class-hints.ts";
import { isUnnamedThread } from "./comment-thread.ts";
import { linksToItsOwnPlace } from "./own-place-link.ts";
import { isFurniture, isHidden, speaksForTwin } from "./visibility.ts";
import { isHtmlSpace } from "../whitespace.ts";

/** A control that submits or acts: a <button>, or an input shown as one. */
const BUTTON_INPUTS = new Set(["submit", "button", "image", "reset"]);
const isButton = ({ name, attribs }: Element): boolean => name === "button" || (name === "input" && BUTTON_INPUTS.has((attribs.type ?? "").trim().toLowerCase()));

/** A form's button sits this few levels inside it at most. */
const FORM_BUTTON_LEVELS = 4;
const formOf = (button: Element): Element | undefined => closestWithin(button, FORM_BUTTON_LEVELS, (at) => at.name === "form");

/** A link counts as one unless it is a title's permalink to itself (a term's `#callbackfn`): that text is the title's. */
const linksAway = (link: Element): boolean => !linksToItsOwnPlace(link, link.attribs.href as string);

/** Text measures of one element's subtree, gathered in a single walk; what content scoring works from. */
export interface BlockStats {
  /** Visible characters below (whitespace not counted). */
  chars: number;
  /** Of those, characters inside links. */
  linkChars: number;
  /** Commas below: prose has them, menus and teaser lists rarely do. */
  commas: number;
  /** Paragraph scores passed up from the paragraphs below (see PARAGRAPH_SHARE). */
  score: number;
  /** Characters of prose paragraphs below: runs of text long enough for a sentence and mostly not links. */
  prose: number;
  /** How many prose paragraphs are below. */
  paragraphs: number;
  /** Characters of structured text below: the unlinked text of headings, table cells, list items and definitions too short for prose. */
  structured: number;
  images: number;
  /** Buttons below: <button>s and links named as buttons. */
  buttons: number;
  /** Lines below that are a link and nothing else, long enough to be a headline: a listing's items have one each. */
  linkedLines: number;
  /** The first heading below (or the element itself, if a heading), in document order. */
  heading: Element | undefined;
  /** The element's own inline text (not that of block children): what makes it a paragraph. */
  ownChars: number;
  /** Of that, the characters in a link or in bold: a call to action is set in both. */
  ownMarkedChars: number;
  hint: ClassHint;
  /** Inside a comment thread taken as the page's text, where an entry's author and date lines say who said what. */
  inThread: boolean;
  /**
   * An entry of a comment thread taken as the page's text, or holding such entries: the thread, whose authors' and
   * permalinks' links make no box of links and whose short entries are no datelines.
   */
  holdsThread: boolean;
}

export interface PageBlocks {
  stats: Map<Element, BlockStats>;
  /** The root's own measures. */
  root: BlockStats;
  /** Elements left out of the measures: hidden, and furniture by tag, role or name. */
  dropped: Set<Element>;
  /** Of those, the ones dropped for their class or id, with the visible characters they held (comment sections aside). */
  droppedByName: Map<Element, number>;
  /** Of those, the ones named as reader comments, with the visible characters they held. */
  discussions: Map<Element, number>;
  /** Pictures and the captions written under them (figcaption, or an element named as a caption). */
  captions: Map<Element, Element>;
  /** Visible characters of the largest <article> or element named as a post's own body (hentry, entry-content, articleBody). */
  postBodyChars: number;
  /** The outermost elements named as a post's own body that hold text, in page order: one on a post's page. */
  posts: Element[];
  /** Prose met before the first heading or anchor named as comments (what such a thread comments on); absent without one. */
  proseBeforeThread?: number;
}

/** Shorter runs of text are labels, captions of buttons or menu entries rather than paragraphs. */
const MIN_PARAGRAPH_CHARS = 25;
/** A line that is a link is a headline's link at this length: menu entries and "more" links are shorter. */
const MIN_LINKED_LINE_CHARS = 20;
const LINKED_LINE_SHARE = 0.9;
/** A paragraph's score goes to its ancestors, less the further up they are (Readability's propagation). */
const PARAGRAPH_SHARE = [1, 1 / 2, 1 / 6, 1 / 9, 1 / 12];
/** A paragraph is prose when at most this share of it is link text. */
const PROSE_MAX_LINK_DENSITY = 0.5;
const SECTIONING = new Set(["article", "aside", "main", "nav", "section"]);
/** Where short text is structure (a heading, a specification, a parameter) rather than a label. */
const STRUCTURED = new Set(["h1", "h2", "h3", "h4", "h5", "h6", "td", "th", "dd", "dt", "li"]);
/** A caption describes the picture before it in the same figure, at most this many levels up. */
const CAPTION_REACH = 3;

/** An open element's entry, every field set from the start (see newStats). */
function newOpen(element: Element | undefined, stats: BlockStats, block: boolean): Open {
  return { element, stats, block, image: undefined, ownChars: 0, ownLinkChars: 0, ownMarkedChars: 0, ownCommas: 0, afterLinkedLine: false, lead: Lead.None, trustedDiscussion: false };
}

function newStats(hint: ClassHint, inThread: boolean): BlockStats {
  // Every field from the start: one shape for all, where fields added later each changed it.
  return { chars: 0, linkChars: 0, commas: 0, score: 0, prose: 0, paragraphs: 0, structured: 0, images: 0, buttons: 0, linkedLines: 0, heading: undefined, ownChars: 0, ownMarkedChars: 0, hint, inThread, holdsThread: false };
}

interface Open {
  element: Element | undefined;
  stats: BlockStats;
  block: boolean;
  /** The first picture in the subtree so far: what a caption that follows it describes. */
  image: Element | undefined;
  /** The own inline text of a block: characters, link characters, commas. */
  ownChars: number;
  ownLinkChars: number;
  ownMarkedChars: number;
  ownCommas: number;
  /** Whether the last block child with text was a linked line (a teaser's headline). */
  afterLinkedLine: boolean;
  /** How the block's own text opens (see Lead). */
  lead: Lead;
  /** Whether it is a comment section taken as the page's text. */
  trustedDiscussion: boolean;
}

/**
 * How a block's own text opens: not yet, with a link and nothing else so far, with a headline's link on a line of its
 * own (MIN_LINKED_LINE_CHARS or more, a line break after it: a teaser's headline over its summary in one block), or
 * otherwise.
 */
const Lead = { None: 0, Link: 1, LinkLine: 2, Other: 3 } as const;
type Lead = (typeof Lead)[keyof typeof Lead];

function countChars(data: string): number {
  let chars = 0;
  for (let i = 0; i < data.length; i++) if (!isHtmlSpace(data.charCodeAt(i))) chars++;
  return chars;
}

/** Visible characters under an element (whitespace not counted). */
function visibleChars(element: Element): number {
  let chars = 0;
  walk(element, (node) => {
    if (isText(node)) chars += countChars(node.data);
    return isElement(node) && !isHidden(node);
  });
  return chars;
}

/** The page's one post named as one (a post's page); undefined when there is none or several (a listing). */
export const onlyPost = (blocks: Pick<PageBlocks, "posts">): Element | undefined => (blocks.posts.length === 1 ? blocks.posts[0] : undefined);

/** Where the page's own markers are: what furniture-looking wrappers around the main content hold. */
export interface Landmarks {
  /** Elements with <main>, role=main or an articleBody inside. */
  holdsMain: ReadonlySet<Element>;
  /** Elements with the headline (an <h1>) inside. */
  holdsHeadline: ReadonlySet<Element>;
  /** Forms with a box to write in. */
  writingForms: ReadonlySet<Element>;
  /** Forms with a line to type in. */
  lineForms: ReadonlySet<Element>;
  /** Whether the page declares itself a forum topic in its JSON-LD. */
  forumTopic: boolean;
}

function isComma(code: number): boolean {
  // , ، ﹐ ︐ ︑ ⹁ ⸴ ⸲ ， 、
  return code === 0x2c || code === 0x60c || code === 0xfe50 || code === 0xfe10 || code === 0xfe11 || code === 0x2e41 ||
    code === 0x2e34 || code === 0x2e32 || code === 0xff0c || code === 0x3001;
}

/**
 * Where a thread marked by `marker` starts: the marker, or, when it is wrapped in a box of its own (`<div
 * class="commentform"><h2 id="comments">Comments</h2></div>`), the outermost such box below the body: the comments
 * follow the box. A marker with company in its container (a "No comments" line among a post's date and author) is
 * not wrapped.
 */
function threadStart(marker: Element): Element {
  let start = marker;
  while (start.parent && isElement(start.parent) && start.parent.name !== "body" && onlyShown(start)) start = start.parent;
  return start;
}

/** Whether node is the only thing its parent shows: no other visible element, no other text. */
function onlyShown(node: ChildNode): boolean {
  for (const sibling of node.parent?.children ?? []) {
    if (sibling === node) continue;
    if ((isElement(sibling) && !isHidden(sibling)) || (isText(sibling) && sibling.data.trim() !== "")) return false;
  }
  return true;
}

/**
 * A link in a sentence of a paragraph (text of the paragraph's own beside it): its words are the sentence's whatever
 * its names say (a glossary or annotation popup, class="popup"); a share button or an ad stands in a line of its own.
 */
function inSentence(node: Element): boolean {
  const { parent } = node;
  if (node.name !== "a" || !parent || !isElement(parent) || parent.name !== "p") return false;
  return parent.children.some((sibling) => isText(sibling) && sibling.data.trim() !== "");
}

const NO_POSTS: ReadonlySet<Element> = new Set();

/**
 * Measures every visible element under root in one walk. Paragraphs (a block's own inline text of
 * MIN_PARAGRAPH_CHARS or more) score 1 + commas + one per 100 characters (at most 3), scaled down by their
 * share of link text, and pass that score to five levels of ancestors: the shape Readability made standard. A forum
 * topic's posts (topic-posts.ts) are read as a thread taken as the page's text is.
 */
export function measureBlocks(root: ParentNode, trusted: ReadonlySet<Element>, landmarks: Landmarks, topicPosts: ReadonlySet<Element> = NO_POSTS): PageBlocks {
  const stats = new Map<Element, BlockStats>();
  const dropped = new Set<Element>();
  const droppedByName = new Map<Element, number>();
  const discussions = new Map<Element, number>();
  const captions = new Map<Element, Element>();
  const rootStats = newStats(NO_HINT, false);
  const open: Open[] = [newOpen(undefined, rootStats, true)];
  const owners: Open[] = [open[0] as Open];
  let links = 0;
  let bold = 0;
  let codeBlocks = 0;
  let sections = 0;
  let mains = 0;
  let trustedDiscussions = 0;
  let postBodyChars = 0;
  const posts: Element[] = [];
  let openPosts = 0;
  // Containers whose children after a comment marker are the comments (siblings of the marker's heading).
  const threads = new Set<ParentNode>();
  let proseSoFar = 0;
  let proseBeforeThread: number | undefined;

  const finishParagraph = (entry: Open, index: number): void => {
    const { ownChars: chars, ownLinkChars: linkChars, ownCommas: commas } = entry;
    entry.stats.ownChars = chars;
    entry.stats.ownMarkedChars = entry.ownMarkedChars;
    const linkedLine = chars >= MIN_LINKED_LINE_CHARS && linkChars >= chars * LINKED_LINE_SHARE;
    // A block opening with a headline's link on a line of its own is a teaser: the headline and its summary.
    const teaser = entry.lead === Lead.LinkLine;
    if (linkedLine || teaser) entry.stats.linkedLines++;
    // A paragraph right after a linked line is a teaser's summary, not the page's prose.
    // Never index -1 (the root's paragraph): it is a slow property lookup in V8.
    const parentEntry = index > 0 ? open[index - 1] : undefined;
    const summary = teaser || parentEntry?.afterLinkedLine === true;
    if (parentEntry && chars > 0) parentEntry.afterLinkedLine = linkedLine;
    if (chars < MIN_PARAGRAPH_CHARS) {
      if (entry.element && STRUCTURED.has(entry.element.name)) entry.stats.structured += chars - linkChars;
      return;
    }
    const linkDensity = linkChars / chars;
    if (linkDensity <= PROSE_MAX_LINK_DENSITY && !summary) {
      entry.stats.prose += chars - linkChars;
      entry.stats.paragraphs++;
      proseSoFar += chars - linkChars;
    }
    const score = summary ? 0 : (1 + commas + Math.min(3, Math.floor(chars / 100))) * (1 - linkDensity);
    for (let level = 0; level < PARAGRAPH_SHARE.length && level < index; level++) {
      const ancestor = open[index - 1 - level] as Open;
      ancestor.stats.score += score * (PARAGRAPH_SHARE[level] ?? 0);
    }
  };

  walk(
    root,
    (node) => {
      if (isText(node)) {
        const top = open[open.length - 1] as Open;
        const owner = owners[owners.length - 1] as Open;
        const { data } = node;
        let chars = 0;
        let commas = 0;
        for (let i = 0; i < data.length; i++) {
          const code = data.charCodeAt(i);
          if (isHtmlSpace(code)) continue;
          chars++;
          if (isComma(code)) commas++;
        }
        if (chars > 0 && (owner.lead === Lead.None || (owner.lead === Lead.Link && links === 0))) owner.lead = links > 0 ? Lead.Link : Lead.Other;
        top.stats.chars += chars;
        top.stats.commas += commas;
        owner.ownChars += chars;
        owner.ownCommas += commas;
        // A code block's words are code, however many link to their definitions (a signature's types in Go's, Rust's
        // and Java's references): not a list of links.
        if (links > 0 && codeBlocks === 0) {
          top.stats.linkChars += chars;
          owner.ownLinkChars += chars;
        }
        if (links > 0 || bold > 0) owner.ownMarkedChars += chars;
        return false;
      }
      if (!isElement(node)) return false;
      if (isHidden(node)) {
        dropped.add(node);
        return false;
      }
      // Inside a comment section taken as the page's text, a thread's entries are its text too (a topic whose posts
      // follow `<a id="comment-1">` anchors, in a form of its moderation tools).
      if (node.parent && threads.has(node.parent) && !trusted.has(node) && trustedDiscussions === 0) {
        dropped.add(node);
        discussions.set(node, visibleChars(node));
        return false;
      }
      // A thread whose markup names nothing, recognised by its shape, is left out as a named one is.
      const shapedThread = isUnnamedThread(node) && !landmarks.holdsHeadline.has(node) && !landmarks.holdsMain.has(node);
      if (shapedThread && !trusted.has(node) && trustedDiscussions === 0) {
        dropped.add(node);
        discussions.set(node, visibleChars(node));
        return false;
      }
      if (marksComments(node)) {
        // The marker's heading and what follows it in the same container are the thread.
        const marker = node.parent && isElement(node.parent) && HEADING_LEVELS[node.parent.name] !== undefined ? node.parent : node;
        const start = threadStart(marker);
        proseBeforeThread ??= proseSoFar;
        if (start.parent) threads.add(start.parent);
      }
      const hint = classHint(node);
      const byTag = isFurniture(node, sections > 0, sections > mains);
      // A form with a box to write in is a comment or reply form whatever its names, and left out as comments are.
      const discussion = hint.discussion || landmarks.writingForms.has(node);
      // Inside a comment section taken as content, its parts (each comment, its body) are named as comments too.
      const byName = (hint.furniture || discussion) && !(hint.spoken && speaksForTwin(node)) && !trusted.has(node) && !(hint.discussion && trustedDiscussions > 0) && (discussion || hint.button || !inSentence(node));
      // Markup is not always tidy: a banner or a "sidebar" wrapper may hold the whole page, main content included.
      // A name is a weaker claim than a tag: a "sidebar" or "menu" wrapper around the headline is layout too.
      // So is a widget holding the post (Blogger's Blog widget), but not a comment section holding its entries.
      const wrapper =
        landmarks.holdsMain.has(node) ||
        (!byTag && (landmarks.holdsHeadline.has(node) || (byName && !hint.discussion && findElement(node, (element) => classHint(element).postBody) !== undefined)));
      if ((byTag || byName) && !wrapper) {
        dropped.add(node);
        // The button of a form to type in, left out, still says what the box around it is (a sign-up box's "Sign up"); a
        // recipe card's print form or a list's buttons say nothing of the kind.
        const form = byTag && isButton(node) ? formOf(node) : undefined;
        if (form && landmarks.lineForms.has(form)) (open[open.length - 1] as Open).stats.buttons++;
        if (byName && !byTag) (discussion ? discussions : droppedByName).set(node, visibleChars(node));
        return false;
      }
      const entry = newOpen(node, newStats(hint, trustedDiscussions > 0), BLOCK_ELEMENTS.has(node.name));
      if (node.name === "br") {
        const owner = owners[owners.length - 1] as Open;
        // All the block's own text so far is the link's.
        if (owner.lead === Lead.Link && links === 0) owner.lead = owner.ownLinkChars >= MIN_LINKED_LINE_CHARS ? Lead.LinkLine : Lead.Other;
      }
      if (node.name === "img") {
        entry.stats.images = 1;
        entry.image = node;
      }
      stats.set(node, entry.stats);
      open.push(entry);
      if (entry.block) owners.push(entry);
      if (node.name === "a" && node.attribs.href !== undefined) {
        if (linksAway(node)) links++;
        if (hint.button) entry.stats.buttons = 1;
      }
      if (BOLD_ELEMENTS.has(node.name)) bold++;
      if (node.name === "pre") codeBlocks++;
      if (hint.postBody) openPosts++;
      if (SECTIONING.has(node.name)) sections++;
      if (node.name === "main") mains++;
      if (((hint.discussion || shapedThread) && trusted.has(node)) || topicPosts.has(node)) {
        trustedDiscussions++;
        entry.trustedDiscussion = true;
        entry.stats.holdsThread = true;
      }
      return true;
    },
    (node) => {
      if (!isElement(node)) return;
      const index = open.length - 1;
      const entry = open[index] as Open;
      if (entry.block) {
        owners.pop();
        finishParagraph(entry, index);
      }
      open.pop();
      if (node.name === "a" && node.attribs.href !== undefined && linksAway(node)) links--;
      if (BOLD_ELEMENTS.has(node.name)) bold--;
      if (node.name === "pre") codeBlocks--;
      if (SECTIONING.has(node.name)) sections--;
      if (node.name === "main") mains--;
      if (entry.trustedDiscussion) trustedDiscussions--;
      if (entry.stats.hint.postBody || node.name === "article") postBodyChars = Math.max(postBodyChars, entry.stats.chars);
      if (entry.stats.hint.postBody && --openPosts === 0 && entry.stats.chars > 0) posts.push(node);
      if ((node.name === "figcaption" || entry.stats.hint.caption) && entry.stats.images === 0) {
        for (let level = 1; level <= CAPTION_REACH && level <= open.length; level++) {
          const image = open[open.length - level]?.image;
          const known = image && captions.get(image);
          // A caption around the one found first (a figcaption around its caption and credit lines) is the caption.
          if (image && (!known || contains(node, known))) {
            captions.set(image, node);
            break;
          }
        }
      }
      const parentEntry = open[open.length - 1] as Open;
      parentEntry.image ??= entry.image;
      if (entry.stats.holdsThread) parentEntry.stats.holdsThread = true;
      if (HEADING_LEVELS[node.name] !== undefined) entry.stats.heading ??= node;
      parentEntry.stats.heading ??= entry.stats.heading;
      const parent = parentEntry.stats;
      const own = entry.stats;
      parent.chars += own.chars;
      parent.linkChars += own.linkChars;
      parent.commas += own.commas;
      parent.prose += own.prose;
      parent.paragraphs += own.paragraphs;
      parent.structured += own.structured;
      parent.images += own.images;
      parent.linkedLines += own.linkedLines;
      parent.buttons += own.buttons;
    },
  );
  finishParagraph(open[0] as Open, 0);
  return { stats, root: rootStats, dropped, droppedByName, discussions, captions, postBodyChars, posts, ...(proseBeforeThread !== undefined && { proseBeforeThread }) };
}
