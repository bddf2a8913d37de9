import type { ContentHandler, HandlerInput, HandlerOutput } from "./content-handler.ts";
import { textContent } from "./dom.ts";
import { type Rendering, selectContent } from "./html/content-selection.ts";
import { applySelectors } from "./html/apply-selectors.ts";
import { type FallbackUse, failSafe, shownText } from "./html/fail-safe.ts";
import { htmlToMarkdown } from "./html/markdown.ts";
import { readPageInfo } from "./html/metadata.ts";
import { parseHtml } from "./parse-html.ts";
import { normalizeNewlines } from "./whitespace.ts";

/**
 * Set in metadata when no main block stood out (docs, forum threads, listings) and the whole readable page
 * is shown instead: only navigation, page headers and footers, banners and hidden elements were left out.
 */
export const WHOLE_PAGE = "whole-page";
/** Set in metadata when the content shown is the text the page's JSON-LD gives, the page itself showing little of it. */
export const STRUCTURED_DATA = "json-ld";
/** Set in metadata when the content shown is what the caller's includeSelectors matched. */
export const SELECTED = "selectors";

/**
 * A page that shows less than this share of the text its JSON-LD gives for its content is rendered by script
 * (the text is only in the data); the data's text is shown instead.
 */
const MIN_SHOWN_SHARE = 0.25;

export type { FallbackUse };

/** The handler's extraction, with what the bench reports besides: whether the fallback ran. */
export function extractHtmlPage({ text, url, selectors }: HandlerInput): { result: HandlerOutput; fallback: FallbackUse } {
    // The reader keeps CR characters, as htmlparser2 did; browsers normalise them away before parsing.
    const document = parseHtml(normalizeNewlines(text));
    // The caller's selectors go first: what excludeSelectors match is gone before the page is read.
    const { included, warnings } = selectors ? applySelectors(document, selectors) : { warnings: [] };
    const parseWarning = warnings.length > 0 ? { parseWarning: warnings.join("; ") } : {};
    const page = readPageInfo(document, url);
    const { title, metadata, baseUrl, structuredHtml } = page;
    if (included) {
      metadata.extraction = SELECTED;
      const content = included.map((element) => htmlToMarkdown([element], { baseUrl, skip: () => false })).filter((markdown) => markdown !== "").join("\n\n");
      return { result: { ...(title ? { title } : {}), content, metadata, signals: page.signals, ...parseWarning }, fallback: "not-run" };
    }
    const selection = selectContent(page);
    const { captions } = selection;
    const render = ({ nodes, skip }: Rendering): string => htmlToMarkdown(nodes, { baseUrl, skip: (element) => skip.has(element), captions, pruned: true });
    let markdown = selection.main ? render(selection.main) : "";
    // A page without a main block, or whose main block renders empty (an app shell's <main> filled by script), is shown whole.
    const whole = !markdown;
    if (whole) markdown = render(selection.page);
    const { headline, headlineRepeatsTitle } = page;
    const checked = failSafe(page.body, headlineRepeatsTitle ? headline : undefined, page.titles, { markdown, visibleChars: selection.visibleChars, comments: selection.comments, ...(whole ? {} : { rendering: selection.main, post: selection.post }) }, render);
    let content = checked.markdown;
    if (whole && checked.use !== "chosen" && selection.hasProse) metadata.extraction = WHOLE_PAGE;
    if (structuredHtml) {
      // Shown characters: a link's or a picture's URL is no text. The markup bounds the data's text from above: only
      // pages that may qualify parse it (a second, small parse).
      const shown = shownText(content).chars;
      const data = shown < structuredHtml.length * MIN_SHOWN_SHARE ? parseHtml(structuredHtml) : undefined;
      if (data && shown < shownText(textContent(data)).chars * MIN_SHOWN_SHARE) {
        content = htmlToMarkdown(data.children, { baseUrl, skip: () => false });
        metadata.extraction = STRUCTURED_DATA;
      }
    }
    const result = {
      ...(title ? { title } : {}),
      content,
      ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
      signals: page.signals,
      ...parseWarning,
    };
    return { result, fallback: checked.use };
}

export const htmlHandler: ContentHandler = {
  kind: "html",
  extract: (input) => extractHtmlPage(input).result,
};
