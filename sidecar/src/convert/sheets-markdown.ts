import { escapeInline } from "../extract/markdown-syntax.ts";
import type { SheetGrid } from "./sheet-grid.ts";

/** A workbook's sheets as Markdown: a "## name" section each, holding its table. */
export function sheetsMarkdown(sheets: readonly { name: string; grid: SheetGrid }[]): { content: string; truncated: boolean } {
  let truncated = false;
  const sections = sheets.map(({ name, grid }) => {
    const table = grid.toMarkdown();
    truncated ||= table.truncated;
    return `## ${escapeInline(name)}\n\n${table.markdown}`;
  });
  return { content: sections.join("\n\n"), truncated };
}
