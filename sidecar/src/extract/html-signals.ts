import type { Document, Element, ParentNode } from "domhandler";
import { isElement, isText, walk } from "./dom.ts";
import { isHidden } from "./html-visibility.ts";

function isHtmlSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d || code === 0x0c || code === 0xa0;
}

/**
 * How much text the served HTML shows, and how many <script> elements it has: a thin body with
 * many scripts is likely rendered client-side. Text counts as a browser shows it: visible elements
 * only, whitespace runs as one space, trimmed. One pass over the document.
 */
export function pageSignals(document: Document, body: ParentNode): { bodyTextChars: number; scriptTags: number } {
  let scriptTags = 0;
  let bodyTextChars = 0;
  let pendingSpace = false;
  let inBody = body === document;
  const hidden: Element[] = []; // open hidden elements; text under any of them is not shown
  walk(
    document,
    (node) => {
      if (isElement(node)) {
        if (node.name === "script") scriptTags++;
        if (node === body) inBody = true;
        if (isHidden(node)) hidden.push(node);
        return true; // scripts in hidden elements (head, template) count too
      }
      if (!isText(node) || !inBody || hidden.length > 0) return false;
      const { data } = node;
      for (let i = 0; i < data.length; i++) {
        if (isHtmlSpace(data.charCodeAt(i))) {
          pendingSpace = bodyTextChars > 0;
        } else {
          if (pendingSpace) bodyTextChars++;
          pendingSpace = false;
          bodyTextChars++;
        }
      }
      return false;
    },
    (node) => {
      if (node === hidden[hidden.length - 1]) hidden.pop();
      if (node === body) inBody = false;
    },
  );
  return { bodyTextChars, scriptTags };
}
