import type { ContentHandler } from "./content-handler.ts";
import { normalizeNewlines } from "./whitespace.ts";

/** Plain text as it is, tidied: LF newlines, no trailing spaces, at most one blank line in a row. */
export const textHandler: ContentHandler = {
  kind: "text",
  extract({ text }) {
    const lines = normalizeNewlines(text)
      .split("\n")
      .map((line) => line.trimEnd());
    return { content: lines.join("\n").replace(/\n{3,}/g, "\n\n").replace(/^\n+/, "").trimEnd() };
  },
};
