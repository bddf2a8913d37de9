/**
 * A GFM table; the first row is the header. Cells are inline Markdown: pipes are escaped,
 * newlines become <br>, and short rows are padded so every row has the same width.
 */
export function markdownTable(rows: readonly (readonly string[])[]): string {
  let width = 0;
  for (const row of rows) width = Math.max(width, row.length);
  if (width === 0) return "";
  const line = (row: readonly string[]): string => {
    const cells: string[] = [];
    for (let i = 0; i < width; i++) cells.push(cell(row[i] ?? ""));
    return `| ${cells.join(" | ")} |`;
  };
  const lines = rows.map(line);
  lines.splice(1, 0, `| ${Array.from({ length: width }, () => "---").join(" | ")} |`);
  return lines.join("\n");
}

function cell(text: string): string {
  // split/trim rather than a whitespace-around-newline regex, which backtracks on long space runs.
  return text
    .split("\n")
    .map((part) => part.trim())
    .join("<br>")
    .replace(/\|/g, "\\|");
}
