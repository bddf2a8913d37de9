import { type ChildNode, type Element, type ParentNode, Text } from "domhandler";
import { isElement, isText, walk } from "./dom.ts";

/**
 * Shows a declarative shadow root as a browser renders it: the host's content becomes its shadow tree (the template's
 * content), each <slot> in it replaced by the host's children assigned to it, or by its own content when none are.
 * A child with `slot="name"` goes to the first slot of that name, every other child and text to the first slot without
 * one; children no slot takes are not shown. Slots of shadow trees nested inside are theirs, left to their own turn.
 */
export function composeShadowRoot(host: Element, template: Element): void {
  const slots: Element[] = [];
  walk(template, (node) => {
    if (!isElement(node)) return false;
    if (node.name === "slot") slots.push(node);
    return node.name !== "template";
  });
  const firstByName = new Map<string, Element>();
  for (const slot of slots) if (!firstByName.has(slot.attribs.name ?? "")) firstByName.set(slot.attribs.name ?? "", slot);
  const assigned = new Map<Element, ChildNode[]>();
  for (const child of host.children) {
    if (child === template || !(isElement(child) || isText(child))) continue;
    const slot = firstByName.get(isElement(child) ? (child.attribs.slot ?? "") : "");
    if (!slot) continue;
    const nodes = assigned.get(slot);
    if (nodes) nodes.push(child);
    else assigned.set(slot, [child]);
  }
  // Each parent of slots once, whatever their number; the innermost first (the reverse of the order of their first
  // slots), so a slot's own content, shown when nothing is assigned to it, has its slots filled already.
  const slotSet = new Set(slots);
  const parents = [...new Set(slots.map((slot) => slot.parent as ParentNode))].reverse();
  for (const parent of parents) {
    setChildren(parent, parent.children.flatMap((child) => (slotSet.has(child as Element) ? (assigned.get(child as Element) ?? (child as Element).children) : [child])));
  }
  setChildren(host, template.children);
}

/** Makes nodes parent's children, linked to it and each other, with adjacent text joined as the parser joins it. */
function setChildren(parent: ParentNode, nodes: readonly ChildNode[]): void {
  const children: ChildNode[] = [];
  for (const node of nodes) {
    const previous = children[children.length - 1];
    if (previous && isText(previous) && isText(node)) {
      // A new node: the one before may still stand where it came from until its own parent is set.
      children[children.length - 1] = new Text(previous.data + node.data);
    } else {
      children.push(node);
    }
  }
  for (const [index, node] of children.entries()) {
    node.parent = parent;
    node.prev = children[index - 1] ?? null;
    node.next = children[index + 1] ?? null;
  }
  parent.children = children;
}
