import { errorReason } from "../error-reason.ts";
import { codeHandler } from "./code-handler.ts";
import type { ContentHandler, HandlerInput, HandlerOutput } from "./content-handler.ts";
import type { ContentKind } from "./content-kind.ts";
import { csvHandler, tsvHandler } from "./csv-handler.ts";
import { htmlHandler } from "./html-handler.ts";
import { jsonHandler } from "./json-handler.ts";
import { markdownHandler } from "./markdown-handler.ts";
import { textHandler } from "./text-handler.ts";
import { xmlHandler } from "./xml-handler.ts";
import { yamlHandler } from "./yaml-handler.ts";

const HANDLERS: Record<ContentKind, ContentHandler> = {
  html: htmlHandler,
  markdown: markdownHandler,
  json: jsonHandler,
  csv: csvHandler,
  tsv: tsvHandler,
  xml: xmlHandler,
  yaml: yamlHandler,
  code: codeHandler,
  text: textHandler,
};

const NAMES: Record<ContentKind, string> = {
  html: "HTML",
  markdown: "Markdown",
  json: "JSON",
  csv: "CSV",
  tsv: "TSV",
  xml: "XML",
  yaml: "YAML",
  code: "Source code",
  text: "Text",
};

/**
 * Runs the handler for the kind; selectors on a page that is not HTML are said in parseWarning. A handler that throws (invalid JSON, broken YAML …) does not fail the fetch:
 * the raw text is shown instead, with a parseWarning saying what went wrong.
 */
export function extractContent(kind: ContentKind, input: HandlerInput): HandlerOutput {
  const output = runHandler(kind, input);
  const { selectors } = input;
  if (kind === "html" || !(selectors?.include?.length || selectors?.exclude?.length)) return output;
  const unselected = `includeSelectors and excludeSelectors apply to HTML pages; this page (${NAMES[kind]}) was read whole`;
  return { ...output, parseWarning: output.parseWarning ? `${output.parseWarning}; ${unselected}` : unselected };
}

function runHandler(kind: ContentKind, input: HandlerInput): HandlerOutput {
  const handler = HANDLERS[kind];
  try {
    return handler.extract(input);
  } catch (error) {
    if (handler === textHandler) throw error;
    return {
      ...textHandler.extract(input),
      parseWarning: `${NAMES[kind]} could not be parsed (${errorReason(error)}); showing the raw text`,
    };
  }
}
