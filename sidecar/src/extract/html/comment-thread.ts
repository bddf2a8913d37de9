import type { Element } from "domhandler";
import { findElement, holdsWithin, isElement, isText, shortText, textContent, walk } from "../dom.ts";
import { HEADING_LEVELS } from "./block-elements.ts";
import { MAX_DATELINE_CHARS, isDateline } from "./dateline.ts";

/**
 * Recognises a comment thread by its shape when its markup names nothing (old blogs): a container whose children
 * are mostly repeated siblings (same tag, same first class) of which most carry what a comment carries, a link to
 * reply, a permalink to itself on the page, or a line with an author and a date.
 */

/** Fewer repeated entries are a pair of boxes, not a thread. */
const MIN_ENTRIES = 3;
/** The repeated entries are at least this share of the container's children. */
const MIN_ENTRY_SHARE = 0.5;
/** At least this share of them carry a comment's marks. */
const MIN_MARKED_SHARE = 2 / 3;
/** An author-and-date line is this deep below its entry at most. */
const DATELINE_DEPTH = 2;

/**
 * A permalink to a comment on the same page (#comment-12, #c123), to one on another page (/post/#comment-12: a recent
 * comments box; TYPO3 names every block of a page #c123, so not that form), or a reply link (?replytocom=12).
 */
const COMMENT_HREF = /^#c\d+$|#comments?[-_]?\d+$|[?&]replytocom=\d/i;
/** A reply link's whole text, in the languages pages here are written in. */
const REPLY_TEXT = /^\s*(?:reply|antworten|beantworten|répondre|responder|rispondi)\s*$/i;
const WORD = /\p{L}{2,}/u;
const FIRST_CLASS = /^\s*(\S+)/;
const DIGITS = /\d+/g;

/** The author's name, marked up apart from the date: a link, a <cite>, a <strong> whose text is words, not a date. */
function namesSomeone(element: Element): boolean {
  const text = textContent(element).trim();
  return WORD.test(text) && !isDateline(text);
}

const judged = new WeakMap<Element, boolean>();

export function isUnnamedThread(container: Element): boolean {
  // Most elements have too few children to be a thread: answered without allocating or caching anything.
  let elements = 0;
  for (const child of container.children) if (isElement(child) && ++elements === MIN_ENTRIES) break;
  if (elements < MIN_ENTRIES) return false;
  const known = judged.get(container);
  if (known !== undefined) return known;
  const verdict = judgeContainer(container);
  judged.set(container, verdict);
  return verdict;
}

/** What repeated entries share: their tag and first class, its digits left out (post-12, bg1 and bg2 alike). */
export const entryKey = (element: Element): string => `${element.name} ${FIRST_CLASS.exec(element.attribs.class ?? "")?.[1]?.replace(DIGITS, "") ?? ""}`;

function judgeContainer(container: Element): boolean {
  // isUnnamedThread has seen at least MIN_ENTRIES element children.
  const children = container.children.filter(isElement);
  const groups = new Map<string, Element[]>();
  for (const child of children) {
    const key = entryKey(child);
    const group = groups.get(key);
    if (group) group.push(child);
    else groups.set(key, [child]);
  }
  let entries: Element[] = [];
  for (const group of groups.values()) if (group.length > entries.length) entries = group;
  if (entries.length < MIN_ENTRIES || entries.length < children.length * MIN_ENTRY_SHARE) return false;
  // Entries are judged until the verdict is certain: a page's paragraphs or list items fail after a few.
  const needed = Math.ceil(entries.length * MIN_MARKED_SHARE);
  let marked = 0;
  for (const [index, entry] of entries.entries()) {
    if (isMarkedAsComment(entry)) marked++;
    if (marked >= needed) return true;
    if (marked + entries.length - index - 1 < needed) return false;
  }
  return false;
}

function isMarkedAsComment(entry: Element): boolean {
  let marked = false;
  let headed = false;
  walk(entry, (node) => {
    if (marked || !isElement(node)) return false;
    if (HEADING_LEVELS[node.name] !== undefined) headed = true;
    if (node.name === "a" && node.attribs.href !== undefined && (COMMENT_HREF.test(node.attribs.href) || REPLY_TEXT.test(textContent(node)))) marked = true;
    return true;
  });
  // A teaser in a listing has a headline and a "Posted by … on …" line too; a comment has no headline.
  return marked || (!headed && holdsWithin(entry, DATELINE_DEPTH, isNamedDateline));
}

/** A dateline in which a name is marked up apart. */
function isNamedDateline(element: Element): boolean {
  const text = shortText(element, MAX_DATELINE_CHARS);
  return text !== undefined && isDateline(text) && findElement(element, namesSomeone) !== undefined;
}

