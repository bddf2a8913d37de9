import type { ContentHandler } from "./content-handler.ts";
import { fencedBlock } from "./markdown-syntax.ts";
import { normalizeNewlines } from "./whitespace.ts";

/** Source code in a fence tagged with its language, so it reads (and renders) as code. */
export const codeHandler: ContentHandler = {
  kind: "code",
  extract({ text, language }) {
    return { content: fencedBlock(normalizeNewlines(text).replace(/^\n+/, "").trimEnd(), language) };
  },
};
