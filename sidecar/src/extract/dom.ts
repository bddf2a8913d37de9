import type { AnyNode, ChildNode, Element, ParentNode, Text } from "domhandler";
import { ElementType } from "htmlparser2";
import { isBlank, isHtmlSpace } from "./whitespace.ts";

/** Helpers over htmlparser2's DOM. Traversal is iterative, so it needs no depth limit of its own. */

export function isElement(node: AnyNode): node is Element {
  return node.type === ElementType.Tag || node.type === ElementType.Script || node.type === ElementType.Style;
}

export function isText(node: AnyNode): node is Text {
  return node.type === ElementType.Text;
}

function hasChildren(node: AnyNode): node is ParentNode {
  return "children" in node;
}

/**
 * Pre-order walk over root's descendants. enter returns whether to descend into the node;
 * leave runs for every node enter returned true for, after its children.
 */
export function walk(root: ParentNode, enter: (node: ChildNode) => boolean, leave?: (node: ChildNode) => void): void {
  let node: ChildNode | null = root.children[0] ?? null;
  while (node) {
    const descend = enter(node);
    if (descend && hasChildren(node) && node.children.length > 0) {
      node = node.children[0] ?? null;
      continue;
    }
    let current: ChildNode = node;
    if (descend) leave?.(current);
    node = current.next;
    while (!node) {
      const parent: ParentNode | null = current.parent;
      if (!parent || parent === root) return;
      current = parent as ChildNode;
      leave?.(current);
      node = current.next;
    }
  }
}

/** The first element (document order) under root matching the predicate; subtrees for which skip is true are not searched. */
export function findElement(
  root: ParentNode,
  matches: (element: Element) => boolean,
  skip: (element: Element) => boolean = () => false,
): Element | undefined {
  let found: Element | undefined;
  walk(root, (node) => {
    if (found || !isElement(node) || skip(node)) return false;
    if (matches(node)) found = node;
    return !found;
  });
  return found;
}

/** All text under root, as written (CDATA included). */
export function textContent(root: ParentNode): string {
  const parts: string[] = [];
  walk(root, (node) => {
    if (isText(node)) parts.push(node.data);
    return true;
  });
  return parts.join("");
}

/**
 * All text under root, trimmed, when it shows at most `max` characters (a run of spaces shows as one: a generator's
 * indentation between a name and a date is no text); undefined as soon as it shows more, so a long element is not read
 * whole to learn that it is no dateline or title. `reads` says which elements' text counts (all, unless told).
 */
export function shortText(root: ParentNode, max: number, reads: (element: Element) => boolean = () => true): string | undefined {
  const parts: string[] = [];
  // Until the text read could show more than max, its length bounds what it shows and no character is looked at;
  // from there on, characters shown are counted from the first that is not a space, a run of spaces as one.
  let length = 0;
  let counting = false;
  let shown = 0;
  let spaces = false;
  let over = false;
  const count = (data: string): void => {
    for (let i = 0; i < data.length && !over; i++) {
      if (isHtmlSpace(data.charCodeAt(i))) {
        spaces = shown > 0;
        continue;
      }
      shown += spaces ? 2 : 1;
      spaces = false;
      over = shown > max;
    }
  };
  walk(root, (node) => {
    if (over) return false;
    if (!isText(node)) return !isElement(node) || node === root || reads(node);
    const { data } = node;
    parts.push(data);
    if (counting) count(data);
    else if ((length += data.length) > max) {
      counting = true;
      for (const part of parts) count(part);
    }
    return false;
  });
  return over ? undefined : parts.join("").trim();
}

/** The first element from `node` on, going the given way among its siblings (`node` itself if it is one). */
export function elementFrom(node: ChildNode | null | undefined, way: "next" | "prev" = "next"): Element | undefined {
  for (let at = node; at; at = at[way]) if (isElement(at)) return at;
  return undefined;
}

/** A parent's first child past blank text: an element, text that shows, or undefined. */
export function firstShown(parent: ParentNode): ChildNode | undefined {
  const [first] = parent.children;
  return first && isText(first) && isBlank(first.data) ? (nodeBeside(first) ?? undefined) : first;
}

/** The node beside `node` the given way, past blank text: an element, text that shows, or null. */
export function nodeBeside(node: ChildNode, way: "next" | "prev" = "next"): ChildNode | null {
  let at = node[way];
  while (at && isText(at) && isBlank(at.data)) at = at[way];
  return at;
}

/** The element beside `node` the given way, past blank text; undefined when text or nothing comes first. */
export function elementBeside(node: ChildNode, way: "next" | "prev" = "next"): Element | undefined {
  const at = nodeBeside(node, way);
  return at && isElement(at) ? at : undefined;
}

/** The element children of `parent`, when there are at most `max` of them and any text beside them is blank. */
export function elementChildren(parent: ParentNode, max: number): Element[] | undefined {
  const elements: Element[] = [];
  for (const child of parent.children) {
    if (isText(child)) {
      if (!isBlank(child.data)) return undefined;
    } else if (isElement(child) && elements.push(child) > max) return undefined;
  }
  return elements;
}

/** Whether one of `element`'s descendants at most `levels` down matches: a part of a construct it holds, looked for a bounded way. */
export function holdsWithin(element: Element, levels: number, matches: (descendant: Element) => boolean): boolean {
  if (levels === 0) return false;
  return element.children.some((child) => isElement(child) && (matches(child) || holdsWithin(child, levels - 1, matches)));
}

/** Whether an element is the body or the document's root: the whole page, not a block of it. */
export const isPageRoot = ({ name }: Element): boolean => name === "body" || name === "html";

/**
 * The nearest ancestor of `element` at most `levels` up that matches: what a part of a construct looks for around itself
 * (a button's heading, its form), bounded so that deep nesting costs each element a fixed number of steps.
 */
export function closestWithin(element: Element, levels: number, matches: (ancestor: Element) => boolean): Element | undefined {
  let at = element.parent;
  for (let level = 0; level < levels && at && isElement(at); level++, at = at.parent) if (matches(at)) return at;
  return undefined;
}

/** Whether `node` is `ancestor` or inside it. */
export function contains(ancestor: ParentNode, node: AnyNode): boolean {
  for (let at: AnyNode | null = node; at; at = at.parent) if (at === ancestor) return true;
  return false;
}

/**
 * Takes `nodes` out of the tree, their siblings linked past them. Each parent's children are compacted once: taken
 * out one by one, each with a search and a splice of its parent's children, 100,000 siblings took 16 s.
 */
export function removeNodes(nodes: readonly ChildNode[]): void {
  const gone = new Set(nodes);
  const parents = new Set<ParentNode>();
  for (const node of gone) if (node.parent) parents.add(node.parent);
  for (const { children } of parents) {
    let kept = 0;
    for (const child of children) if (!gone.has(child)) children[kept++] = child;
    children.length = kept;
    for (let i = 0; i < kept; i++) {
      const child = children[i] as ChildNode;
      child.prev = i > 0 ? (children[i - 1] as ChildNode) : null;
      child.next = children[i + 1] ?? null;
    }
  }
  for (const node of gone) node.parent = node.prev = node.next = null;
}
