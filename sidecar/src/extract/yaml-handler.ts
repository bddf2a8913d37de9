import { parseAllDocuments } from "yaml";
import type { ContentHandler } from "./content-handler.ts";
import { fencedBlock } from "./markdown-syntax.ts";
import { normalizeNewlines } from "./whitespace.ts";

/** YAML shown as written in a yaml fence, after parsing proves it is YAML (errors throw). */
export const yamlHandler: ContentHandler = {
  kind: "yaml",
  extract({ text }) {
    const source = normalizeNewlines(text).replace(/^\n+/, "").trimEnd();
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
