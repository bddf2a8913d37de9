import { parseDocument } from "yaml";
import type { ContentHandler } from "./content-handler.ts";
import { normalizeNewlines } from "./whitespace.ts";
import { MAX_PARSED_YAML_CHARS } from "./yaml-handler.ts";

/** A leading YAML front matter block (between "---" lines) and the Markdown after it. */
function splitFrontMatter(text: string): { frontMatter?: string; body: string } {
  if (!text.startsWith("---\n")) return { body: text };
  const end = /^(?:---|\.\.\.)[ \t]*$/m.exec(text.slice(4));
  if (!end) return { body: text };
  return { frontMatter: text.slice(4, 4 + end.index), body: text.slice(4 + end.index + end[0].length) };
}

function frontMatterTitle(frontMatter: string): string | undefined {
  if (frontMatter.length > MAX_PARSED_YAML_CHARS) return undefined;
  const document = parseDocument(frontMatter);
  const title = document.errors.length === 0 ? document.get("title") : undefined;
  return typeof title === "string" && title.trim() ? title.trim() : undefined;
}

/** Heading text without an optional closing sequence of #s (which needs a space before it). */
function withoutClosingHashes(text: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === "#") end--;
  return end === text.length || end === 0 || text[end - 1] === " " || text[end - 1] === "\t" ? text.slice(0, end).trim() : text;
}

/** The text of the first ATX "# " heading outside fenced code blocks. */
function firstHeading(markdown: string): string | undefined {
  let fence: string | undefined;
  for (const line of markdown.split("\n")) {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (marker?.startsWith(fence)) fence = undefined;
      continue;
    }
    if (marker) {
      fence = marker;
      continue;
    }
    const heading = /^ {0,3}#(?:[ \t]+|$)/.exec(line);
    const title = heading ? withoutClosingHashes(line.slice(heading[0].length).trim()) : "";
    if (title) return title;
  }
  return undefined;
}

/** Markdown is already the output format: passed through with LF newlines; the title comes from front matter or the first # heading. */
export const markdownHandler: ContentHandler = {
  kind: "markdown",
  extract({ text }) {
    const content = normalizeNewlines(text).trimEnd();
    const { frontMatter, body } = splitFrontMatter(content);
    const title = (frontMatter !== undefined ? frontMatterTitle(frontMatter) : undefined) ?? firstHeading(body);
    return title ? { title, content } : { content };
  },
};
