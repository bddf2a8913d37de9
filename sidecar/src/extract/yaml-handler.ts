import { parseAllDocuments } from "yaml";
import type { ContentHandler } from "./content-handler.ts";
import { fencedBlock } from "./markdown-syntax.ts";
import { normalizeNewlines } from "./whitespace.ts";

/**
 * YAML longer than this is not parsed: the parser reads 0.3-0.5 MB a second (a megabyte of front matter took 3.4 s,
 * on the thread that serves every fetch), and its text is shown as written whatever the parse says.
 */
export const MAX_PARSED_YAML_CHARS = 128 * 1024;

/**
 * YAML shown as written in a yaml fence, after parsing proves it is YAML (errors throw); one longer than
 * MAX_PARSED_YAML_CHARS is shown so unproved, without a title.
 */
export const yamlHandler: ContentHandler = {
  kind: "yaml",
  extract({ text }) {
    const source = normalizeNewlines(text).replace(/^\n+/, "").trimEnd();
    if (source.length > MAX_PARSED_YAML_CHARS) return { content: fencedBlock(source, "yaml") };
    const documents = parseAllDocuments(source);
    for (const document of documents) {
      const [error] = document.errors;
      if (error) throw error;
    }
    const first = documents[0];
    const title = [first?.get("title"), first?.get("name")].find((value) => typeof value === "string" && value.trim() !== "");
    const content = fencedBlock(source, "yaml");
    return typeof title === "string" ? { title: title.trim(), content } : { content };
  },
};
