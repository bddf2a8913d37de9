import type { Element, ParentNode } from "domhandler";
import { isElement } from "../../extract/dom.ts";
import { localName } from "./local-name.ts";

/** The parent's child elements with the local name, in document order. */
export function childElements(parent: ParentNode, name: string): Element[] {
  return parent.children.filter((node): node is Element => isElement(node) && localName(node.name) === name);
}
