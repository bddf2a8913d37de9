import type { Element } from "domhandler";
import { findElement, isElement, textContent, walk } from "../dom.ts";
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

/** A permalink to a comment on the same page (#comment-12, #c123) or a reply link (?replytocom=12). */
const COMMENT_HREF = /^#(?:c|comments?[-_]?)\d+$|[?&]replytocom=\d/i;
/** A reply link's whole text, in the languages pages here are written in. */
const REPLY_TEXT = /^\s*(?:reply|antworten|beantworten|répondre|responder|rispondi)\s*$/i;
const WORD = /\p{L}{2,}/u;

/** The author's name, marked up apart from the date: a link, a <cite>, a <strong> whose text is words, not a date. */
function namesSomeone(element: Element): boolean {
  const text = textContent(element).trim();
  return WORD.test(text) && !isDateline(text);
}

const judged = new WeakMap<Element, boolean>();

export function isUnnamedThread(container: Element): boolean {
  const known = judged.get(container);
  if (known !== undefined) return known;
  const verdict = judgeContainer(container);
  judged.set(container, verdict);
  return verdict;
}

function judgeContainer(container: Element): boolean {
  const children = container.children.filter(isElement);
  if (children.length < MIN_ENTRIES) return false;
  const groups = new Map<string, Element[]>();
  for (const child of children) {
    const key = `${child.name} ${(child.attribs.class ?? "").trim().split(/\s+/)[0]?.replace(/\d+/g, "") ?? ""}`;
    const group = groups.get(key);
    if (group) group.push(child);
    else groups.set(key, [child]);
  }
  let entries: Element[] = [];
  for (const group of groups.values()) if (group.length > entries.length) entries = group;
  if (entries.length < MIN_ENTRIES || entries.length < children.length * MIN_ENTRY_SHARE) return false;
  const marked = entries.filter(isMarkedAsComment).length;
  return marked >= entries.length * MIN_MARKED_SHARE;
}

function isMarkedAsComment(entry: Element): boolean {
  let marked = false;
  let headed = false;
  let datelined = false;
  const depths = new Map<Element, number>([[entry, 0]]);
  walk(entry, (node) => {
    if (marked || !isElement(node)) return false;
    if (HEADING_LEVELS[node.name] !== undefined) headed = true;
    if (node.name === "a" && node.attribs.href !== undefined && (COMMENT_HREF.test(node.attribs.href) || REPLY_TEXT.test(textContent(node)))) marked = true;
    const depth = (node.parent && isElement(node.parent) ? (depths.get(node.parent) ?? 0) : 0) + 1;
    depths.set(node, depth);
    if (depth <= DATELINE_DEPTH && !datelined) {
      const text = textContent(node).trim();
      datelined = text.length <= MAX_DATELINE_CHARS && isDateline(text) && findElement(node, namesSomeone) !== undefined;
    }
    return true;
  });
  // A teaser in a listing has a headline and a "Posted by … on …" line too; a comment has no headline.
  return marked || (datelined && !headed);
}
