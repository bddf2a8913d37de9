import type { ParentNode } from "domhandler";
import { isElement, isText, walk } from "./dom.ts";
import { isHidden } from "./html/visibility.ts";
import { parseHtml } from "./parse-html.ts";
import { collapseSpaces } from "./whitespace.ts";

/** Elements after which text continues on a new line. */
const LINE_BREAKING = new Set([
  "address", "article", "blockquote", "br", "dd", "div", "dl", "dt", "figcaption", "figure", "footer", "h1", "h2",
  "h3", "h4", "h5", "h6", "header", "hr", "li", "ol", "p", "pre", "section", "table", "tr", "ul",
]);

/** The readable text of an HTML (or XHTML) tree: whitespace collapsed, one line per block, no markup. */
export function plainText(root: ParentNode): string {
  const parts: string[] = [];
  const breakLine = (): void => {
    parts.push("\n");
  };
  walk(
    root,
    (node) => {
      if (isText(node)) parts.push(collapseSpaces(node.data));
      if (!isElement(node)) return false;
      const name = node.name.toLowerCase();
      if (LINE_BREAKING.has(name)) breakLine();
      return !isHidden(node);
    },
    (node) => {
      if (isElement(node) && LINE_BREAKING.has(node.name.toLowerCase())) breakLine();
    },
  );
  return parts
    .join("")
    .split("\n")
    .map((line) => line.replace(/ {2,}/g, " ").trim())
    .filter(Boolean)
    .join("\n");
}

/** The readable text of an HTML fragment (feed descriptions carry escaped HTML). */
export function htmlToPlainText(html: string): string {
  return plainText(parseHtml(html));
}
