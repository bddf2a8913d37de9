import type { ChildNode, Element, ParentNode } from "domhandler";
import { isElement, textContent, walk } from "../dom.ts";

/**
 * Footnotes as GFM writes them: a reference `[^1]` in the text, and its note `[^1]: …` where the page lists its notes.
 * Pages link each reference to its note in a list: Markdown renderers (pandoc's `#fn1`, kramdown's and goldmark's
 * `#fn:1`, GitHub's `#user-content-fn-1`) and MediaWiki (`#cite_note-1`).
 */

/** The id of a note in a list of notes: fn1, fn:1, user-content-fn-1-…, cite_note-1, footnote-2, endnote_3. */
const NOTE_ID = /(?:^|[-_:])(?:fn|footnote|endnote|cite_note|note)(?:$|[-_:\d])/i;
/** A list named as a page's notes (WordPress' `wp-block-footnotes`, whose items' ids are bare UUIDs). */
const NOTES_LIST_CLASS = /(?:^|[-_\s])(?:foot|end)notes?(?:$|[-_\s])/i;
const inNotesList = (item: Element): boolean => item.parent !== null && isElement(item.parent) && NOTES_LIST_CLASS.test(item.parent.attribs.class ?? "");

/** A box named as one note (Substack's `<div class="footnote">`), not as the box of them all (`footnotes`). */
const NOTE_BOX_CLASS = /(?:^|[-_\s])(?:foot|end)note(?:$|[-_\s])/i;

/**
 * A note set as a box of its own rather than a list's item: the box named as a note, by its id or by the id of its
 * first element (Substack's `<div class="footnote"><a id="footnote-1" href="#footnote-anchor-1">1</a>…`).
 */
function noteBox(element: Element): Element | undefined {
  if (element.name === "div" && NOTE_BOX_CLASS.test(element.attribs.class ?? "")) return element;
  const box = element.parent;
  if (!box || !isElement(box) || box.name !== "div" || !NOTE_BOX_CLASS.test(box.attribs.class ?? "")) return undefined;
  return box.children.find(isElement) === element ? box : undefined;
}

/** A reference's text: a number or a letter or two, maybe in brackets (`1`, `[2]`, `a`). */
const REFERENCE_TEXT = /^\[?([\p{L}\p{N}]{1,4})\]?$/u;

export class Footnotes {
  /** Note items by their ids, found on the first reference a page has. */
  private notes?: Map<string, Element>;
  private readonly labels = new Map<Element, string>();
  /** How many notes took each label a reference gave: a later note with a label already taken is told apart (1-2). */
  private readonly taken = new Map<string, number>();
  /** Whether each element looked at is written: notes share their ancestors, each looked at once. */
  private readonly writtenAt = new Map<ParentNode, boolean>();
  private readonly roots: ReadonlySet<ChildNode>;
  private readonly dropped: (element: Element) => boolean;

  /** `roots` are what is written; `dropped` says what is left out of them. */
  constructor(roots: readonly ChildNode[], dropped: (element: Element) => boolean) {
    this.roots = new Set(roots);
    this.dropped = dropped;
  }

  /**
   * The label of the note a link refers to, when it is a footnote's reference to a note that is written; undefined for
   * any other link. A note referred to again keeps its first label.
   */
  reference(link: Element): string | undefined {
    const href = link.attribs.href?.trim();
    if (!href || href.length < 2 || !href.startsWith("#")) return undefined;
    const label = REFERENCE_TEXT.exec(textContent(link).trim())?.[1];
    if (!label) return undefined;
    const note = this.notesOf(link).get(fragment(href));
    if (!note || !this.written(note)) return undefined;
    return this.label(note, label);
  }

  /** The label a reference gave a note, or undefined for an element no reference named. */
  labelOf(item: Element): string | undefined {
    return this.labels.get(item);
  }

  /**
   * A note item's label: the one its reference gave it, else `wanted` (an item no reference named, by its number). A
   * label another note has taken is told apart (1-2): a reference's label has no hyphen, so none made so is taken.
   */
  label(item: Element, wanted: string): string {
    let given = this.labels.get(item);
    if (given === undefined) {
      const count = (this.taken.get(wanted) ?? 0) + 1;
      this.taken.set(wanted, count);
      given = count === 1 ? wanted : `${wanted}-${count}`;
      this.labels.set(item, given);
    }
    return given;
  }

  private notesOf(link: Element): Map<string, Element> {
    if (this.notes) return this.notes;
    const notes = new Map<string, Element>();
    let root: ParentNode = link;
    while (root.parent) root = root.parent;
    walk(root, (node) => {
      if (!isElement(node)) return false;
      const { id } = node.attribs;
      if (!id || notes.has(id)) return true;
      const note = node.name === "li" ? (NOTE_ID.test(id) || inNotesList(node) ? node : undefined) : NOTE_ID.test(id) ? noteBox(node) : undefined;
      if (note) notes.set(id, note);
      return true;
    });
    this.notes = notes;
    return notes;
  }

  /** Whether an element is inside what is written, and nothing around it on the way is left out. */
  private written(element: Element): boolean {
    const path: ParentNode[] = [];
    let written = false;
    for (let at: ParentNode | null = element; at && isElement(at); at = at.parent) {
      const known = this.writtenAt.get(at);
      if (known !== undefined) {
        written = known;
        break;
      }
      path.push(at);
      if (this.dropped(at)) break;
      if (this.roots.has(at)) {
        written = true;
        break;
      }
    }
    for (const at of path) this.writtenAt.set(at, written);
    return written;
  }
}

function fragment(href: string): string {
  try {
    return decodeURIComponent(href.slice(1));
  } catch {
    return href.slice(1);
  }
}
