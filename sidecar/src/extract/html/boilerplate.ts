import type { ChildNode, Element, ParentNode } from "domhandler";
import { closestWithin, contains, elementChildren, elementFrom, findElement, holdsWithin, isElement, isText, shortText, textContent, walk } from "../dom.ts";
import { BLOCK_ELEMENTS, HEADING_LEVELS } from "./block-elements.ts";
import { isHidden } from "./visibility.ts";
import { type BlockStats, onlyPost, type PageBlocks } from "./block-stats.ts";
import { DATELINE_BLOCKS, isAttributionLine, isAuthorCard, isDateline, isPosterName, MAX_DATELINE_CHARS } from "./dateline.ts";
import { repeatsTitle, type TitleWords, wordsOf } from "../repeats-title.ts";
import { isTeaser } from "./teasers.ts";
import { isTaskList } from "./task-list.ts";
import { holdsTabSet } from "./tab-set.ts";
import { plainText } from "../plain-text.ts";
import { oneLine } from "../whitespace.ts";
import { linkTarget } from "../page-links.ts";
import type { PageInfo } from "./metadata.ts";

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
/** Lists and their items, which hold a list of links or the author's points, each with a link. */
const LISTS = new Set(["ul", "ol", "li", "dl"]);
/** ...and a list with text of its own beside its links has less link text than this share: not bare links. */
const MAX_POINTS_LINK_DENSITY = 0.9;
/** Containers with this much link text and little prose are link lists too (teasers: a link and a line). */
const LINKY_CONTAINER_DENSITY = 0.25;
/** Containers with this many commas read as prose whatever their links. */
const PROSE_COMMAS = 10;
/** Bylines and author boxes are short; longer text under such a name is content that happens to be named so. */
const MAX_BYLINE_CHARS = 400;
/** Containers judged as a whole; paragraphs and inline elements are judged by the block they are in. */
const CONTAINERS = new Set(["div", "section", "ul", "ol", "dl", "table", "form", "fieldset", "header", "footer", "aside", "nav", "article", "figure", "center", "details", "menu"]);

/** A call to action is one short line, nearly all of it link or bold text. */
const MAX_CALL_CHARS = 300;
const MIN_CALL_MARKED_SHARE = 0.9;
/** A box with a button and no more text than this is a prompt. */
const MAX_CALL_BOX_CHARS = 400;
/** Headings are titles; longer text in a heading element is a paragraph set in heading type. */
const MAX_HEADING_CHARS = 100;
/** A full stop ends a sentence; titles go without one (an ellipsis is a title cut short). */
const SENTENCE_END = /(?<!\.)[.。]$/;
/** Teaser cards holding less than this share of the content are not what the page is about. */
const MAX_TEASER_SHARE = 0.5;
/** "Related:", "Read more:", "See also:" before a link: a label no longer than this. */
const MAX_LINK_LABEL_CHARS = 40;
/** A web address as text: "https://…", "www.…". */
const WRITTEN_URL = /^(?:https?:\/\/|www\.)\S+$/i;
/** A heading that names its box ("Related posts") is a few words. */
const MAX_BOX_HEADING_CHARS = 40;
/**
 * Headings that name a box of other stories (after or beside the article), in the languages pages here are written
 * in: the box goes whatever its items hold (linked titles with summaries, pictures), unless it is most of the text.
 */
const RELATED_HEADINGS = new Set([
  "related", "related posts", "related articles", "related stories", "related content", "related links", "related news",
  "you may also like", "you might also like", "more stories", "recommended for you", "recent posts", "popular posts",
  "most popular", "most read", "read next", "more news",
  "ähnliche artikel", "mehr zum thema", "das könnte sie auch interessieren", "lesen sie auch", "weitere artikel",
  "articles similaires", "à lire aussi", "artículos relacionados", "leggi anche", "articoli correlati",
]);
/**
 * A post's filing line: its categories and tags, linked to their pages ("Posted in News | Tagged storms, coast", "Filed
 * under: …", "Tags: …"). Bylines ("Posted by …", "Posted on <date>") are not read so: the benchmarks differ on whether
 * they are text.
 */
const FILING_LINE = /^(?:posted (?:in|under)\b|filed (?:under|in)\b|tagged\b|tags:|categories:|category:)/i;
/** ...a line, not a paragraph that starts so. */
const MAX_FILING_CHARS = 200;
/** Blocks that can be a box's label line. */
const LABEL_BLOCKS = new Set(["p", "div", "section", "header", "footer", "center"]);
/** Labels that stand where an ad was or will be; they are the whole text of their block. */
const AD_LABELS = new Set([
  "ad", "ads", "advert", "advertisement", "advertising", "sponsored", "sponsored content", "anzeige", "werbung",
  "publicidad", "publicité", "pubblicità", "reklama", "story continues below", "story continues below advertisement",
  "article continues below", "article continues below advertisement", "continue reading below", "scroll to continue with content",
]);

/** Text before the block's first link ends in a colon: "Related: <link>", "[Read more: <link>]". */
/**
 * Whether every link in an element shows a name set as code, and nothing else: cross-references to a definition, as
 * documentation generators link types and functions (Sphinx's, rustdoc's, Javadoc's).
 */
function linksCodeOnly(element: Element): boolean {
  let links = 0;
  let code = true;
  walk(element, (node) => {
    if (!code || !isElement(node)) return false;
    if (node.name !== "a") return true;
    links++;
    code = elementChildren(node, 1)?.[0]?.name === "code";
    return false;
  });
  return links > 0 && code;
}

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

/** Where an element stands, for judging it. */
interface Context {
  /** The measures of the block it is in. */
  parent: BlockStats | undefined;
  /** Inside a blockquote, where a date is the quote's attribution. */
  quoted: boolean;
  /** The prose characters of the whole main content. */
  mainProse: number;
  /** The characters of the whole main content. */
  mainChars: number;
  statsOf: (element: Element) => BlockStats | undefined;
  /** Whether the element holds the headline that repeats the page's title. */
  framesHeadline: (element: Element) => boolean;
  /** Whether the element stands in a post named as one with more of the post's prose after it. */
  precedesPostProse: (element: Element) => boolean;
  /** Whether the element holds the page's one post named as one. */
  holdsPost: (element: Element) => boolean;
  /** Leaves out an element below the one judged. */
  leaveOut: (element: Element) => void;
}

/**
 * The parts of a card of an entry's metadata in a thread (a user's name over "Joined Mar 3, 2014" and "Messages 2,206",
 * an avatar) that are neither a heading nor an attribution line: its headings name the author.
 */
function threadCard(element: Element, leaveOut: (element: Element) => void): void {
  for (const child of element.children) {
    if (!isElement(child) || HEADING_LEVELS[child.name] !== undefined || isAttributionLine(child)) continue;
    if (findElement(child, (inner) => HEADING_LEVELS[inner.name] !== undefined)) threadCard(child, leaveOut);
    else leaveOut(child);
  }
}

/** A figure stands this far down in its box at most (Nature's box, the `<figure>` in it). */
const FIGURE_LEVELS = 2;

/** A `<figure>` with its caption. */
const isCaptioned = (element: Element): boolean => element.name === "figure" && element.children.some((child) => isElement(child) && child.name === "figcaption");

/** A figure's table stands this far down in it at most (Springer's, in a container, a border and a scroll wrapper). */
const FIGURE_TABLE_LEVELS = 4;

/** Whether a captioned `<figure>` shows a picture (the box holds one) or a table (Springer's tables). */
const showsFigure = (figure: Element, images: number): boolean =>
  isCaptioned(figure) && (images > 0 || holdsWithin(figure, FIGURE_TABLE_LEVELS, (inner) => inner.name === "table"));

/**
 * Whether a box is a figure's: a captioned `<figure>` near its top, of a picture or a table (its button opens it full
 * size: Nature's "Full size image", Springer's "Full size table").
 */
const holdsFigure = (element: Element, { images }: BlockStats): boolean =>
  showsFigure(element, images) || holdsWithin(element, FIGURE_LEVELS, (inner) => showsFigure(inner, images));

/** Whether an element is a wrapper: no text of its own, one element inside. */
function wrapsOne(element: Element, stats: BlockStats): boolean {
  if (stats.ownChars > 0) return false;
  let elements = 0;
  for (const child of element.children) if (isElement(child) && ++elements > 1) return false;
  return elements === 1;
}

/** How a written line ends: a sentence, a question, an exclamation, maybe closed by a quotation mark or bracket. */
const WRITTEN_END = /[.!?。！？]["'»”’)]*$/u;

/**
 * Whether one of an element's children is a written line: a short entry (its author and date over "Same on 2.3.1.")
 * reads as a dateline, a card of an author's figures ("Joined Mar 3, 2014", "Messages 2,206") holds no sentence.
 */
function holdsWrittenLine(element: Element): boolean {
  return element.children.some((child) => isElement(child) && WRITTEN_END.test(oneLine(shortText(child, MAX_DATELINE_CHARS) ?? "")));
}

/**
 * A table whose first row heads its columns: two or more cells, all `<th>`. A navigation box has one title cell
 * over its rows of links instead.
 */
function isHeadedTable(element: Element): boolean {
  if (element.name !== "table") return false;
  const cells = findElement(element, (inner) => inner.name === "tr")?.children.filter(isElement) ?? [];
  return cells.length >= 2 && cells.every((cell) => cell.name === "th");
}

/** Whether a box's first heading names it as other stories ("Related posts", "Mehr zum Thema"). */
function namesOtherStories({ heading }: BlockStats, statsOf: Context["statsOf"]): boolean {
  const chars = heading ? (statsOf(heading)?.chars ?? 0) : 0;
  return heading !== undefined && chars > 0 && chars <= MAX_BOX_HEADING_CHARS && RELATED_HEADINGS.has(wordsOf(plainText(heading)).join(" "));
}

/** Whether all of an element's text is its first heading's. */
function holdsOnlyHeading(stats: BlockStats, statsOf: Context["statsOf"]): boolean {
  const heading = stats.heading && statsOf(stats.heading);
  return heading !== undefined && heading.chars === stats.chars;
}

/**
 * A call to action set apart from the text: a short line that is all link and bold ("**Submit your letter via
 * [this form].**", "**Subscribe to our weekly – [link]**"). A sentence of the article has plain text around its links.
 */
function isCallToAction({ ownChars, ownMarkedChars, linkChars }: BlockStats): boolean {
  return ownChars > 0 && ownChars <= MAX_CALL_CHARS && linkChars > 0 && ownMarkedChars >= ownChars * MIN_CALL_MARKED_SHARE;
}

/** A question answered with buttons is short: "Was this article helpful?" over "Yes" and "No". */
const MAX_ASKING_CHARS = 200;
/** Its buttons are its answers, a word or two each ("Yes", "Not really"). */
const MAX_ANSWER_CHARS = 20;
const WORD_CHARACTER = /\p{L}/u;

/**
 * Whether a box asks its reader a question to answer with buttons (a help center's "Was this article helpful?" with
 * "Yes" and "No", a documentation page's rating): two buttons at least, each a short answer in words, beside a
 * question of a line. An accordion's buttons are its questions, long and with their answers beside them.
 */
function asksWithButtons(element: Element): boolean {
  let asked = "";
  let buttons = 0;
  // The question comes before its answers; a tab set's buttons come before their panels.
  let askedFirst = false;
  let over = false;
  walk(element, (node) => {
    if (over) return false;
    if (isText(node)) {
      asked += node.data;
      over = asked.length > MAX_ASKING_CHARS * 2;
      return false;
    }
    if (!isElement(node) || node.name !== "button") return true;
    const answer = shortText(node, MAX_ANSWER_CHARS);
    over = answer === undefined;
    // An icon with a count (a post's reply, boost and like buttons) answers nothing.
    if (answer !== undefined && WORD_CHARACTER.test(answer)) {
      if (buttons === 0) askedFirst = asked.includes("?");
      buttons++;
    }
    return false;
  });
  return !over && buttons >= 2 && askedFirst && oneLine(asked).length <= MAX_ASKING_CHARS;
}

/** A subtitle is a sentence: a label over a box of links ("Related posts", "More from Dana Wu") is a few words. */
const MIN_SUBTITLE_WORDS = 6;

/**
 * Whether a box opens with a subtitle: its first element a heading of a sentence's words (Medium's subtitle over the
 * author's bar). Its parts are judged one by one.
 */
function opensWithSubtitle(element: Element, { heading }: BlockStats): boolean {
  if (heading === undefined || heading === element || elementFrom(element.children[0]) !== heading) return false;
  // Read a title's length at most: every box around the heading asks about it.
  const title = shortText(heading, MAX_HEADING_CHARS);
  return title !== undefined && wordsOf(title).length >= MIN_SUBTITLE_WORDS;
}

/** Whether one element is boilerplate. */
function isBoilerplate(element: Element, stats: BlockStats, { parent, quoted, mainProse, mainChars, statsOf, framesHeadline, precedesPostProse, holdsPost, leaveOut }: Context): boolean {
  const { chars, linkChars, commas, prose, hint } = stats;
  const linkDensity = chars > 0 ? linkChars / chars : 0;
  const container = CONTAINERS.has(element.name);
  // Less than half the content's prose: a box beside the text, not the text.
  const minor = prose < mainProse / 2;
  // In a thread that is the page's text, each entry's author and date say who said what, and when.
  const metadata = !stats.inThread;
  // In a quotation, a byline is whom the quotation is from (beehiiv's `blockquote__byline`).
  if (metadata && hint.byline && !quoted && chars < MAX_BYLINE_CHARS && (BLOCK_ELEMENTS.has(element.name) || (parent?.ownChars ?? 0) < MAX_BYLINE_CHARS)) return true;
  if (!BLOCK_ELEMENTS.has(element.name)) return false;
  // The element's text as one line, read once when a check needs it.
  let text: string | undefined;
  const line = (): string => (text ??= oneLine(plainText(element)));
  // In a thread or around one, a wrapper around one element is judged as that element, which the walk comes to next:
  // read at every level of a deep nest, an entry's lines took time growing with the square of its depth.
  if ((!metadata || stats.holdsThread) && wrapsOne(element, stats)) return false;
  if (chars > 0 && chars <= 40 && AD_LABELS.has(wordsOf(line()).join(" "))) return true;
  // An entry of a thread, however short, is no dateline ("bob commented Feb 3, 2024 Same on 2.3.1.").
  if (chars > 0 && chars <= MAX_DATELINE_CHARS && !quoted && !stats.holdsThread) {
    // In a thread, an entry's attribution is kept however much of it is links (the author's profile, the entry's
    // permalink on its date); a card of datelines keeps only its headings and lines, and so does a card of the
    // author's figures.
    if (!metadata && (isAttributionLine(element) || isPosterName(element, chars, linkChars))) return false;
    if (!metadata && isAuthorCard(element) && !holdsWrittenLine(element)) {
      threadCard(element, leaveOut);
      return false;
    }
    if (DATELINE_BLOCKS.has(element.name) && isDateline(line())) {
      if (metadata) return true;
      if (!holdsWrittenLine(element)) threadCard(element, leaveOut);
      return false;
    }
  }
  if (linkChars > 0 && chars <= MAX_FILING_CHARS && !quoted && DATELINE_BLOCKS.has(element.name) && FILING_LINE.test(line())) return true;
  // A heading that is a link stays (a listing's titles); so does a sentence around a long link, but not a paragraph
  // that is only a link ("Read the report", "Discuss in the forum") or one labelled "Related:".
  if (linkDensity > LINK_LIST_DENSITY) {
    if (HEADING_LEVELS[element.name] !== undefined) return false;
    // The box around the headline is the article's frame: its links (a byline, tags, names linked in a table) do not
    // make it a list of links; what is inside it is still judged.
    if (framesHeadline(element)) return false;
    // So is a post's named body (entry-content, post-body): a picture post's credit line or a link round-up is all its
    // text; its parts are judged. So is a box around the page's one named post, linked beside a short post (its
    // filing links, more stories after it): dropped whole, it takes the post with it.
    if (container && (hint.postBody || holdsPost(element))) return false;
    // A table with a header row is data, its cells links or not (a support matrix: platform links and check marks).
    if (isHeadedTable(element)) return false;
    // A list in a post's named body with more of the post after it is the author's points, each with its link (a
    // newsletter's items, a deal list, a press review), when its items say something beside their links; related
    // stories stand after the post's text, or are bare links.
    if (LISTS.has(element.name) && linkDensity < MAX_POINTS_LINK_DENSITY && precedesPostProse(element)) return false;
    // A definition's term and value are judged as a paragraph is (Sphinx's "Module configparser", its name linked).
    if (element.name !== "p" && element.name !== "dd" && element.name !== "dt") return true;
    // An address written out as the link's text is a reference the author gives, not a button or a menu entry.
    // So is a name set as code linked to its definition (Sphinx's "Return type: Settings").
    return (linkDensity > LINK_PARAGRAPH_DENSITY && !WRITTEN_URL.test(line()) && !linksCodeOnly(element)) || isLabelledLink(element);
  }
  if (!container) return element.name === "p" && isCallToAction(stats);
  if (minor && namesOtherStories(stats, statsOf)) return true;
  // A wrapper around nothing but a heading is the heading's (a "header" module): its section decides. A figure with a
  // picture and no links is the article's illustration whatever its names say (blog engines' kg-card, wp-caption).
  const illustration = element.name === "figure" && stats.images > 0 && linkChars === 0;
  // A task list is the author's checklist, however its renderer names it (contains-task-list); a tab widget holds the
  // text of its panels.
  if (hint.weight < 0 && prose < chars / 2 && !holdsOnlyHeading(stats, statsOf) && !illustration && !isTaskList(element) && !holdsTabSet(element)) return true;
  // A small box with a button in it is a call to action (a membership or newsletter prompt), not the article's text;
  // the box around the headline is the article's header, whose buttons share or follow it; an entry of a thread, its
  // buttons to quote or answer it.
  // A figure's box is not one: its button opens the picture full size (Nature's "Full size image" under a caption).
  if (stats.buttons > 0 && chars <= MAX_CALL_BOX_CHARS && chars < mainChars / 2 && !framesHeadline(element) && metadata && !stats.holdsThread && !holdsFigure(element, stats)) return true;
  if (chars <= MAX_ASKING_CHARS && metadata && asksWithButtons(element)) return true;
  // A form is something to fill in (a login, a rating, a comment box), unless it wraps most of the text.
  if (element.name === "form" && minor) return true;
  // A thread taken as the page's text, an entry of it or a part of one is no box of links: its authors, permalinks and
  // buttons to quote are links around a reply of a line.
  if (commas >= PROSE_COMMAS || stats.holdsThread || !metadata) return false;
  return linkDensity > LINKY_CONTAINER_DENSITY && hint.weight <= 0 && prose < chars / 2 && !isHeadedTable(element) && !opensWithSubtitle(element, stats);
}

/**
 * Whether an element stands inside one of `frames` with prose after it there (in a later sibling of it or of an
 * ancestor). Each parent's children are read once, from the last: asked for every item of a long list, a walk over
 * the later siblings from each item would take time growing with the square of the list.
 */
function prosePrecedence(frames: ReadonlySet<Element>, statsOf: Context["statsOf"]): (element: Element) => boolean {
  /** Per parent asked about, its children with prose in a later sibling. */
  const followed = new Map<ParentNode, Set<ChildNode>>();
  const isFollowed = (node: ChildNode, parent: ParentNode): boolean => {
    let known = followed.get(parent);
    if (!known) {
      known = new Set();
      let seen = false;
      for (let child = parent.children.at(-1) ?? null; child; child = child.prev) {
        if (seen) known.add(child);
        else seen = isElement(child) && (statsOf(child)?.prose ?? 0) > 0;
      }
      followed.set(parent, known);
    }
    return known.has(node);
  };
  return (element) => {
    let before = false;
    for (let node: Element = element; ; ) {
      if (frames.has(node)) return before;
      const { parent } = node;
      if (!parent || !isElement(parent)) return false;
      before ||= isFollowed(node, parent);
      node = parent;
    }
  };
}

/**
 * Whether the first link in element points to the page itself (one of `addresses`): a post's title linked to its
 * permalink. An empty href or a bare "#" points nowhere, as resolveUrl reads them (a script's handle).
 */
function linksToPage(element: Element, base: URL | null, addresses: ReadonlySet<string>): boolean {
  const href = findElement(element, (inner) => inner.name === "a" && inner.attribs.href !== undefined)?.attribs.href?.trim();
  const target = href && href !== "#" && base ? linkTarget(href, base) : undefined;
  return target !== undefined && addresses.has(target);
}

/**
 * Elements inside the main content to leave out, found top-down (a dropped element's subtree is not judged),
 * added to those selection excluded.
 */
export function boilerplateWithin(
  nodes: readonly ChildNode[],
  blocks: PageBlocks,
  page: Pick<PageInfo, "titles" | "baseUrl" | "addresses" | "holdsHeadline" | "headlineRepeatsTitle">,
  excluded: readonly Element[],
): Set<Element> {
  const { titles } = page;
  const { stats } = blocks;
  const statsOf = (element: Element): BlockStats | undefined => stats.get(element);
  // What selection already left out counts as gone: a heading above it is left with nothing.
  const found = new Set<Element>(excluded);
  const framesHeadline = (element: Element): boolean => page.headlineRepeatsTitle && page.holdsHeadline.has(element);
  const base = URL.parse(page.baseUrl);
  const precedesPostProse = prosePrecedence(new Set(blocks.posts), statsOf);
  const post = onlyPost(blocks);
  const holdsPost = (element: Element): boolean => post !== undefined && contains(element, post);
  const leaveOut = (element: Element): void => void found.add(element);
  // The headline is the first h1 or h2, and comes before the article's first paragraph.
  let headlineSeen = false;
  const parents: (BlockStats | undefined)[] = [];
  let quotes = 0;
  const teasers: Element[] = [];
  let teaserChars = 0;
  let openTeaser: Element | undefined;
  let chars = 0;
  let prose = 0;
  for (const top of nodes) {
    if (!isElement(top)) continue;
    chars += stats.get(top)?.chars ?? 0;
    prose += stats.get(top)?.prose ?? 0;
  }
  for (const top of nodes) {
    if (!isElement(top)) continue;
    walk(
      top,
      (node) => {
        if (!isElement(node) || found.has(node)) return false;
        const entry = stats.get(node);
        if (!entry) return false;
        const level = HEADING_LEVELS[node.name];
        if (level !== undefined && level <= 2 && !headlineSeen && entry.chars > 0) {
          headlineSeen = true;
          if (repeatsTitle(textContent(node), titles)) {
            found.add(node);
            return false;
          }
        }
        if (entry.paragraphs > 0 && entry.ownChars > 0) headlineSeen = true;
        // An article's box of facts (Fandom's infobox) is its values, short lines and links as they are: neither it nor
        // its parts are judged.
        if (entry.hint.factBox) return false;
        if (isBoilerplate(node, entry, { parent: parents.at(-1), quoted: quotes > 0, mainProse: prose, mainChars: chars, statsOf, framesHeadline, precedesPostProse, holdsPost, leaveOut })) {
          found.add(node);
          return false;
        }
        // A data table's cells are its values, whatever holds them (a name's link in a box of its own): not judged.
        if (isHeadedTable(node)) return false;
        // A card is still judged inside: if the cards stay (a listing, a thread), their chrome goes. A card whose
        // heading links to the page itself is the post (old blog themes link a post's title to its permalink).
        if (!openTeaser && isTeaser(node, entry, statsOf) && !(entry.heading && linksToPage(entry.heading, base, page.addresses))) {
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

/** An amount of money: a currency sign and a figure beside it, either side. */
const PRICE = /\p{Sc}\s?\p{Nd}|\p{Nd}\s?\p{Sc}/u;

const EAST_ASIAN_COMMA = /[、，]/;

/**
 * The line of a short block standing alone (no links, no sentence end) that can title a box: "Auch interessant:", "Schon
 * gelesen?"; undefined for any other block.
 * An East Asian comma parts a sentence's clauses, so a line with one is a sentence of the post (a sign-off before a link
 * card, "最後まで読んでいただき、ありがとうございました"); a Latin one parts the items of a credit or a byline ("Sources:
 * LAPD, US Weekly") as often.
 */
function labelLine(element: Element, entry: BlockStats): string | undefined {
  if (!LABEL_BLOCKS.has(element.name) || entry.chars === 0 || entry.chars > MAX_LINK_LABEL_CHARS) return undefined;
  if (entry.linkChars > 0 || entry.ownChars < entry.chars) return undefined;
  const line = oneLine(plainText(element));
  if (EAST_ASIAN_COMMA.test(line)) return undefined;
  // A price ("$129.00 $149.00", "ab 19,90 €") is a value the reader came for, not a box's title.
  return !PRICE.test(line) && !/[.!…。！]["'»”’)」』]*$/.test(line) ? line : undefined;
}

interface Opener {
  element: Element;
  /** 1–6 for headings; labels are below any heading. */
  level: number;
  filled: boolean;
  /** For a label: whether something was left out after it (the box it titled). */
  droppedAfter: boolean;
  /** For a label: whether it ends in ":", asking for the value after it. */
  asksValue: boolean;
}

/** Labels are closed by any heading and by the next label. */
const LABEL_LEVEL = 7;

/**
 * Headings whose section lost everything ("Related stories" above a dropped list) go too; so do labels that
 * titled a box that was left out, with nothing kept after them before the next heading ("Auch interessant:"
 * above a dropped link list). A label with nothing left out after it is a line of text like any other.
 */
function dropEmptyHeadings(nodes: readonly ChildNode[], blocks: PageBlocks, found: Set<Element>): void {
  const open: Opener[] = [];
  const headed = new Map<Element, boolean>();
  const fill = (): void => {
    for (const opener of open) opener.filled = true;
  };
  const close = (level: number): void => {
    while (open.length > 0 && (open[open.length - 1] as Opener).level >= level) {
      const opener = open.pop() as Opener;
      if (opener.filled) continue;
      if (opener.level < LABEL_LEVEL || opener.droppedAfter) found.add(opener.element);
      else fill();
    }
  };
  for (const top of nodes) {
    if (!isElement(top)) continue;
    walk(top, (node) => {
      // Text straight inside a container (a section written as text and <br>s) fills the section too.
      if (isText(node)) {
        if (node.data.trim()) fill();
        return false;
      }
      if (!isElement(node)) return false;
      const entry = blocks.stats.get(node);
      if (!entry || found.has(node)) {
        // Furniture and pruned boilerplate, not what is never shown (scripts, styles).
        if ((entry !== undefined || !isHidden(node)) && open.length > 0) {
          (open[open.length - 1] as Opener).droppedAfter = true;
        }
        return false;
      }
      // A box of facts is content under the heading before it; its own titles head its groups, not the article's sections.
      if (entry.hint.factBox) {
        fill();
        return false;
      }
      // A code block is content, its lines all of it: a line of code set in an element of its own (Expressive Code's
      // `<div class="code">` in the <pre>) is no label, whatever is left out after it (its copy button).
      if (node.name === "pre") {
        if (entry.chars > 0) fill();
        return false;
      }
      const level = HEADING_LEVELS[node.name];
      // A "heading" as long as a paragraph, or ending as a sentence does, is a standfirst or a pull quote set in
      // heading type: content, not a section's title.
      if (level !== undefined && (entry.chars > MAX_HEADING_CHARS || SENTENCE_END.test(oneLine(plainText(node))))) {
        fill();
        return false;
      }
      if (level !== undefined) {
        close(level);
        if (entry.chars > 0) open.push({ element: node, level, filled: false, droppedAfter: false, asksValue: false });
        return false;
      }
      const label = labelLine(node, entry);
      if (label !== undefined) {
        const top = open[open.length - 1];
        // A line paired with a label that asks for one, the two alone in their box ("Yield:" and "1 (9x5-inch) loaf"), is
        // the label's value; one of single letters is a control's ("Text Size:" over "A | A | A").
        if (top?.level === LABEL_LEVEL && top.asksValue && !top.droppedAfter && pairedWith(top.element, node) && WORD_OR_NUMBER.test(label)) {
          fill();
          return false;
        }
        close(LABEL_LEVEL);
        open.push({ element: node, level: LABEL_LEVEL, filled: false, droppedAfter: false, asksValue: label.endsWith(":") });
        return false;
      }
      if (entry.ownChars > 0 || (entry.images > 0 && node.name === "img")) fill();
      return true;
    }, (node) => {
      // In a table of data (one with header cells) a label titles what follows it in its own cell: at the cell's end it
      // titled nothing, it was the cell's value (the last cell of Sphinx's tables). A layout table's cells are a page's
      // boxes, and a label may title the next one.
      const top = open[open.length - 1];
      if (top?.level === LABEL_LEVEL && isElement(node) && TABLE_CELLS.has(node.name) && contains(node, top.element) && inDataTable(node, headed)) close(LABEL_LEVEL);
    });
  }
  close(0);
}

const WORD_OR_NUMBER = /[\p{L}\p{N}]{2}/u;

/** Whether two elements are all their parent holds, the first before the second. */
function pairedWith(first: Element, second: Element): boolean {
  const { parent } = first;
  if (!parent || second.parent !== parent) return false;
  const both = elementChildren(parent, 2);
  return both?.length === 2 && both[0] === first && both[1] === second;
}

const TABLE_CELLS = new Set(["td", "th"]);
/** A cell is this far below its table at most: td, tr, tbody (or thead, tfoot), table. */
const MAX_CELL_LEVELS = 3;

/** Whether a cell is in a table with header cells; `headed` remembers each table's answer, so each is searched once. */
function inDataTable(cell: Element, headed: Map<Element, boolean>): boolean {
  const table = closestWithin(cell, MAX_CELL_LEVELS, (ancestor) => ancestor.name === "table");
  if (!table) return false;
  let known = headed.get(table);
  if (known === undefined) {
    known = findElement(table, (element) => element.name === "th", (element) => element.name === "table") !== undefined;
    headed.set(table, known);
  }
  return known;
}
