import type { Element } from "domhandler";
import { elementFrom, holdsWithin, isElement, isPageRoot, walk } from "../dom.ts";
import { entryKey } from "./comment-thread.ts";
import { isAttributionLine, isMetadataLine } from "./dateline.ts";

/**
 * Recognises a forum topic by its shape when no schema.org type declares it (phpBB, vBulletin, SMF): the main block
 * stands in one of a run of sibling entries of one shape, each signed as a forum post is, with a line dating it ("by
 * rivet_joe » Sat Mar 02, 2024 8:14 pm", "03-02-2024, 08:14 PM #2") and a permalink to itself on the page
 * (`<div id="p101">` … `<a href="#p101">`). The topic's first post is one of the run, where a blog's post stands apart
 * from the comments under it; so the run is the page's text, the replies with the question.
 */

/** The main block sits this many levels below its post at most (a post's body in its inner box, its column). */
const MAX_POST_LEVELS = 6;
/** A post's date line is this deep below it at most (its column, its body, its header, its line). */
const SIGNATURE_DEPTH = 5;
/** A post and at least one reply. */
const MIN_POSTS = 2;

/** The names an anchor gives the place it stands: its id, and an `<a>`'s name. */
function addAnchors({ name, attribs }: Element, anchors: Set<string>): void {
  if (attribs.id) anchors.add(attribs.id);
  if (attribs.name && name === "a") anchors.add(attribs.name);
}

/**
 * Whether entry links to itself: a fragment naming the entry, an anchor inside it (vBulletin's `<a name="post12">`),
 * or an empty anchor just before it (SMF's `<a id="msg12"></a>`).
 */
function linksToItself(entry: Element): boolean {
  const anchors = new Set<string>();
  addAnchors(entry, anchors);
  const before = elementFrom(entry.prev, "prev");
  if (before?.name === "a" && before.children.length === 0) addAnchors(before, anchors);
  const fragments: string[] = [];
  walk(entry, (node) => {
    if (!isElement(node)) return false;
    addAnchors(node, anchors);
    const { href } = node.attribs;
    const hash = href?.indexOf("#") ?? -1;
    if (href && hash >= 0 && hash < href.length - 1) fragments.push(href.slice(hash + 1));
    return true;
  });
  return fragments.some((fragment) => anchors.has(fragment));
}

const datesPost = (element: Element): boolean => isMetadataLine(element) || isAttributionLine(element);

const isSigned = (entry: Element): boolean => holdsWithin(entry, SIGNATURE_DEPTH, datesPost) && linksToItself(entry);

/** The posts of the forum topic that `start` stands in, in order; undefined when it stands in none. */
export function topicPosts(start: Element): Element[] | undefined {
  let post: Element = start;
  for (let level = 0; level <= MAX_POST_LEVELS; level++) {
    const { parent } = post;
    if (!parent || !isElement(parent) || isPageRoot(parent)) return undefined;
    const key = entryKey(post);
    const posts = parent.children.filter((child): child is Element => isElement(child) && child.name === post.name && entryKey(child) === key);
    // Siblings of one shape may be a post's own parts (its paragraphs): the posts are further up. The one holding the
    // main block is read first: on most pages it is no post, and the others need not be read.
    if (posts.length >= MIN_POSTS && isSigned(post) && posts.every((other) => other === post || isSigned(other))) return posts;
    post = parent;
  }
  return undefined;
}

/**
 * The block of a topic: its posts' parent, or the block one level up when that holds the headline and the posts' parent
 * does not (a live blog's headline and standfirst over its feed of entries), unless that is the whole page.
 */
export function topicFrame(posts: readonly Element[], holdsHeadline: ReadonlySet<Element>): Element | undefined {
  const parent = posts[0]?.parent;
  if (!parent || !isElement(parent)) return undefined;
  const above = parent.parent;
  const framesHeadline = above && isElement(above) && !isPageRoot(above) && !holdsHeadline.has(parent) && holdsHeadline.has(above);
  return framesHeadline ? above : parent;
}
