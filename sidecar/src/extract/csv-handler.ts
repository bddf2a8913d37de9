import type { ContentHandler } from "./content-handler.ts";
import { escapeInline } from "./markdown-syntax.ts";
import { markdownTable } from "./markdown-table.ts";
import { parseDelimited } from "./parse-delimited.ts";

/** Delimited data as a GFM table with the first record as the header. */
function delimitedHandler(kind: "csv" | "tsv", delimiter: string): ContentHandler {
  return {
    kind,
    extract({ text }) {
      const rows = parseDelimited(text, delimiter).map((row) => row.map(escapeInline));
      return { content: markdownTable(rows) };
    },
  };
}

export const csvHandler = delimitedHandler("csv", ",");
export const tsvHandler = delimitedHandler("tsv", "\t");
