/** A link or image destination with an optional "title", as the renderer writes them. */
const DESTINATION = String.raw`\(<?[^()\s>]*>?(?:\s+"(?:\\.|[^"\\])*")?\)`;
const IMAGE = new RegExp(String.raw`!\[(?:\\.|[^\]\\])*\]${DESTINATION}`, "g");
const LINK_TARGET = new RegExp(String.raw`(?<!\\)\]${DESTINATION}`, "g");

/**
 * The words of the extractor's Markdown as a reader sees them, for scoring against human-written
 * article bodies: link targets, images (with their titles), fence lines, table rules, <br> and backslash
 * escapes go; the remaining syntax (#, *, |, >) is punctuation the scorer's word tokens ignore anyway.
 */
export function markdownPlainText(markdown: string): string {
  return markdown
    .split("\n")
    .filter((line) => !/^\s*(?:`{3,}|~{3,})[\w+#.-]*\s*$/.test(line))
    .join("\n")
    .replace(IMAGE, "")
    .replace(LINK_TARGET, "]")
    .replace(/<br>/g, "\n")
    .replace(/\\([!-/:-@[-`{-~])/g, "$1");
}
