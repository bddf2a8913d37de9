import type { ContentHandler } from "./content-handler.ts";
import { type Rendering, selectContent } from "./html-content-selection.ts";
import { htmlToMarkdown } from "./html-markdown.ts";
import { readPageInfo } from "./html-metadata.ts";
import { parseMarkup } from "./parse-markup.ts";
import { normalizeNewlines } from "./whitespace.ts";

/**
 * Set in metadata when no main block stood out (docs, forum threads, listings) and the whole readable page
 * is shown instead: only navigation, page headers and footers, banners and hidden elements were left out.
 */
export const WHOLE_PAGE = "whole-page";

export const htmlHandler: ContentHandler = {
  kind: "html",
  extract({ text, url }) {
    // htmlparser2 keeps CR characters; browsers normalise them away before parsing.
    const document = parseMarkup(normalizeNewlines(text));
    const page = readPageInfo(document, url);
    const { title, metadata, baseUrl } = page;
    const selection = selectContent(page);
    const { captions } = selection;
    const render = ({ nodes, skip }: Rendering): string => htmlToMarkdown(nodes, { baseUrl, skip: (element) => skip.has(element), captions });
    // A main block that renders empty (an app shell's <main> filled by script) falls back to the page too.
    let content = selection.main ? render(selection.main) : "";
    if (!content) {
      content = render(selection.page);
      if (selection.hasProse) metadata.extraction = WHOLE_PAGE;
    }
    return {
      ...(title ? { title } : {}),
      content,
      ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
      signals: page.signals,
    };
  },
};
