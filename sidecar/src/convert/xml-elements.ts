import type { Element, ParentNode } from "domhandler";
import { isElement, walk } from "../extract/dom.ts";

/**
 * Element and attribute lookups in Office XML by local name: documents keep the usual prefixes (w:, a:, table:) but
 * nothing requires them, and some writers choose their own.
 */

export function localName(name: string): string {
  return name.slice(name.indexOf(":") + 1);
}

export function childElements(parent: ParentNode, name: string): Element[] {
  return parent.children.filter((node): node is Element => isElement(node) && localName(node.name) === name);
}

export function childElement(parent: ParentNode, name: string): Element | undefined {
  return parent.children.find((node): node is Element => isElement(node) && localName(node.name) === name);
}

/** Descendants with the local name, in document order; matches are not searched inside. */
export function descendantElements(root: ParentNode, name: string): Element[] {
  const found: Element[] = [];
  walk(root, (node) => {
    if (!isElement(node)) return false;
    if (localName(node.name) !== name) return true;
    found.push(node);
    return false;
  });
  return found;
}

/** A namespaced attribute (r:id, table:name) whatever its prefix; plain attributes are read from attribs directly. */
export function prefixedAttribute(attributes: Record<string, string>, name: string): string | undefined {
  for (const [key, value] of Object.entries(attributes)) {
    if (key.includes(":") && localName(key) === name) return value;
  }
  return undefined;
}
