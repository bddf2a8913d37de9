import type { ContentHandler } from "./content-handler.ts";
import { isJsonLd, summarizeJsonLd } from "./json-ld.ts";
import { escapeInline, escapeText, fencedBlock } from "./markdown-syntax.ts";
import { isNotebook, notebookMarkdown } from "./notebook-markdown.ts";
import { oneLine } from "./whitespace.ts";

/** Node 22 has JSON.rawJSON and the reviver's source text; TypeScript's ES2023 lib does not declare them yet. */
const rawJson = (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON;

/** Parses keeping every number's source text, so 64-bit ids and 1.0 print exactly as served. */
function parseExact(text: string): unknown {
  return JSON.parse(text, (_key: string, value: unknown, context?: { source: string }) =>
    typeof value === "number" && context ? rawJson(context.source) : value,
  );
}

/** A readable article summary of JSON-LD, placed before the JSON itself. */
function jsonLdSummary(value: unknown): { title?: string; markdown: string } | undefined {
  const summary = summarizeJsonLd(value);
  if (!summary) return undefined;
  const facts = [
    ...(summary.authors.length > 0 ? [`- Author: ${escapeInline(oneLine(summary.authors.join(", ")))}`] : []),
    ...(summary.datePublished ? [`- Published: ${escapeInline(oneLine(summary.datePublished))}`] : []),
  ];
  const blocks = [
    summary.title ? `# ${escapeInline(oneLine(summary.title))}` : "",
    summary.description ? escapeText(summary.description) : "",
    facts.join("\n"),
    summary.body ? escapeText(summary.body) : "",
  ].filter(Boolean);
  return summary.title ? { title: summary.title, markdown: blocks.join("\n\n") } : { markdown: blocks.join("\n\n") };
}

/** JSON pretty-printed in a json fence; JSON-LD gets a readable summary first; a Jupyter notebook reads as its cells. Invalid JSON throws. */
export const jsonHandler: ContentHandler = {
  kind: "json",
  extract({ text }) {
    const value = parseExact(text);
    if (isNotebook(value)) {
      const { title, markdown } = notebookMarkdown(value);
      return title ? { title, content: markdown } : { content: markdown };
    }
    const code = fencedBlock(JSON.stringify(value, null, 2), "json");
    const summary = isJsonLd(value) ? jsonLdSummary(value) : undefined;
    if (!summary) return { content: code };
    const content = `${summary.markdown}\n\n${code}`;
    return summary.title ? { title: summary.title, content } : { content };
  },
};
