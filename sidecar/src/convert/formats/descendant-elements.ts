import type { Element, ParentNode } from "domhandler";
import { isElement, walk } from "../../extract/dom.ts";
import { localName } from "./local-name.ts";

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
