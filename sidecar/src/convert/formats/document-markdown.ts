import type { ChildNode } from "domhandler";
import { htmlToMarkdown } from "../../extract/html/markdown.ts";

/** Markdown for a document's own HTML (a converter's output, not a page): nothing is chrome to skip, and links stay as written. */
export function documentMarkdown(nodes: readonly ChildNode[]): string {
  return htmlToMarkdown(nodes, { baseUrl: "about:blank", skip: () => false });
}
