import type { Element, ParentNode } from "domhandler";
import type { ContentHandler } from "./content-handler.ts";
import { findElement, isElement, walk } from "./dom.ts";
import { htmlToMarkdown } from "./html-markdown.ts";
import { readPageInfo } from "./html-metadata.ts";
import { pageSignals } from "./html-signals.ts";
import { isFurniture, isHidden } from "./html-visibility.ts";
import { parseMarkup } from "./parse-markup.ts";
import { normalizeNewlines } from "./whitespace.ts";

/**
 * The single <article> under body outside hidden elements and page furniture (related posts in an aside),
 * if there is exactly one: several are a listing, not one article.
 */
function soleArticle(body: ParentNode): Element | undefined {
  const articles: Element[] = [];
  walk(body, (node) => {
    if (!isElement(node) || isHidden(node) || isFurniture(node, false, true)) return false;
    if (node.name !== "article") return true;
    articles.push(node);
    return false;
  });
  return articles.length === 1 ? articles[0] : undefined;
}

export const htmlHandler: ContentHandler = {
  kind: "html",
  extract({ text, url }) {
    // htmlparser2 keeps CR characters; browsers normalise them away before parsing.
    const document = parseMarkup(normalizeNewlines(text));
    const { title, metadata, baseUrl } = readPageInfo(document, url);
    const body = findElement(document, (element) => element.name === "body") ?? document;
    const main =
      findElement(body, (element) => element.name === "main" || element.attribs.role === "main", isHidden) ??
      soleArticle(body);

    // Narrowest first; each later attempt is a fallback for when the earlier one rendered nothing
    // (an empty <main> filled by script, or class-name heuristics that matched a page-wide wrapper).
    const attempts = [
      ...(main ? [() => htmlToMarkdown(main, { baseUrl, classNames: true, inSection: true })] : []),
      () => htmlToMarkdown(body, { baseUrl, classNames: true, inSection: false }),
      () => htmlToMarkdown(body, { baseUrl, classNames: false, inSection: false }),
    ];
    let content = "";
    for (const attempt of attempts) {
      content = attempt();
      if (content) break;
    }

    return {
      ...(title ? { title } : {}),
      content,
      ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
      signals: pageSignals(document, body),
    };
  },
};
