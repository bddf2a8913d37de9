import type { ChildNode, Document } from "domhandler";
import { isElement, isText } from "../../extract/dom.ts";
import { parseHtml } from "../../extract/parse-html.ts";
import { descendantElements } from "./descendant-elements.ts";
import { documentMarkdown } from "./document-markdown.ts";
import { localName } from "./local-name.ts";
import { prefixedAttribute } from "./prefixed-attribute.ts";

/** Spaces a single <text:s text:c="…"/> may stand for. */
const MAX_SPACES = 100;

const escapeHtml = (text: string): string => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** What an OpenDocument file's styles say, by style name: emphasis for text styles, numbering for list styles. */
export interface Styles {
  bold: Set<string>;
  italic: Set<string>;
  numbered: Set<string>;
}

export function readStyles(parts: readonly (Document | undefined)[]): Styles {
  const styles: Styles = { bold: new Set(), italic: new Set(), numbered: new Set() };
  for (const part of parts) {
    if (!part) continue;
    for (const style of descendantElements(part, "style")) {
      const name = prefixedAttribute(style.attribs, "name");
      const [properties] = descendantElements(style, "text-properties");
      if (!name || !properties) continue;
      if (/^(bold|[6-9]00)$/.test(prefixedAttribute(properties.attribs, "font-weight") ?? "")) styles.bold.add(name);
      if (/^(italic|oblique)$/.test(prefixedAttribute(properties.attribs, "font-style") ?? "")) styles.italic.add(name);
    }
    for (const list of descendantElements(part, "list-style")) {
      const name = prefixedAttribute(list.attribs, "name");
      const first = list.children.find(isElement);
      if (name && first && localName(first.name) === "list-level-style-number") styles.numbered.add(name);
    }
  }
  return styles;
}

/**
 * OpenDocument text (a text document's body, a slide's text boxes) as HTML for the page renderer: headings by outline level, paragraphs, lists (numbered
 * when their style numbers them), tables, links, line breaks and spaces, bold and italic spans; notes, change
 * tracking and the document's declarations are not its text.
 */
export function bodyHtml(nodes: readonly ChildNode[], styles: Styles): string {
  let html = "";
  for (const node of nodes) {
    if (isText(node)) {
      html += escapeHtml(node.data);
      continue;
    }
    if (!isElement(node)) continue;
    const attribute = (name: string) => prefixedAttribute(node.attribs, name);
    const inner = () => bodyHtml(node.children, styles);
    switch (localName(node.name)) {
      case "h": {
        const level = Math.min(6, Math.max(1, Number.parseInt(attribute("outline-level") ?? "1", 10) || 1));
        html += `<h${level}>${inner()}</h${level}>`;
        break;
      }
      case "p":
        html += `<p>${inner()}</p>`;
        break;
      case "list": {
        const tag = styles.numbered.has(attribute("style-name") ?? "") ? "ol" : "ul";
        html += `<${tag}>${inner()}</${tag}>`;
        break;
      }
      case "list-item":
      case "list-header":
        html += `<li>${inner()}</li>`;
        break;
      case "table":
        html += `<table>${inner()}</table>`;
        break;
      case "table-row":
        html += `<tr>${inner()}</tr>`;
        break;
      case "table-cell": {
        const span = Number.parseInt(attribute("number-columns-spanned") ?? "1", 10);
        html += `<td${span > 1 ? ` colspan="${span}"` : ""}>${inner()}</td>`;
        break;
      }
      case "span": {
        const style = attribute("style-name") ?? "";
        let text = inner();
        if (styles.italic.has(style)) text = `<i>${text}</i>`;
        if (styles.bold.has(style)) text = `<b>${text}</b>`;
        html += text;
        break;
      }
      case "a": {
        const href = attribute("href");
        html += href ? `<a href="${escapeHtml(href)}">${inner()}</a>` : inner();
        break;
      }
      case "line-break":
        html += "<br>";
        break;
      case "tab":
        html += " ";
        break;
      case "s":
        html += " ".repeat(Math.min(MAX_SPACES, Math.max(1, Number.parseInt(attribute("c") ?? "1", 10) || 1)));
        break;
      case "note":
      case "tracked-changes":
      case "sequence-decls":
      case "variable-decls":
      case "user-field-decls":
      case "covered-table-cell":
      case "table-column":
      case "annotation":
        break;
      default:
        html += inner();
    }
  }
  return html;
}

/** bodyHtml's HTML as Markdown, through the page renderer (links are the document's own: nothing to resolve). */
export function odfMarkdown(html: string): string {
  return documentMarkdown(parseHtml(`<body>${html}</body>`).children);
}
