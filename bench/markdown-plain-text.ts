/**
 * The words of the extractor's Markdown as a reader sees them, for scoring against human-written
 * article bodies: link targets, images, fence lines, table rules, <br> and backslash escapes go;
 * the remaining syntax (#, *, |, >) is punctuation the scorer's word tokens ignore anyway.
 */
export function markdownPlainText(markdown: string): string {
  return markdown
    .split("\n")
    .filter((line) => !/^\s*(?:`{3,}|~{3,})[\w+#.-]*\s*$/.test(line))
    .join("\n")
    .replace(/!\[(?:\\.|[^\]\\])*\]\([^()\s]*\)/g, "")
    .replace(/(?<!\\)\]\([^()\s]*\)/g, "]")
    .replace(/<br>/g, "\n")
    .replace(/\\([!-/:-@[-`{-~])/g, "$1");
}
