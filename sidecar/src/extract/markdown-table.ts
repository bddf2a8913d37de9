/** How a column's cells are aligned, as GFM's delimiter row says it. */
export type ColumnAlignment = "left" | "right" | "center";

const DELIMITER: Readonly<Record<ColumnAlignment | "none", string>> = { left: ":---", right: "---:", center: ":---:", none: "---" };

/**
 * A GFM table; the first row is the header, `alignments` its columns' alignment where the source gives one. Cells are inline Markdown: pipes are escaped,
 * newlines become <br>, and short rows are padded so every row has the same width.
 *
 * Unless padding would more than double the table: one wide row over many short ones (a row of thousands of cells
 * over thousands of one-cell rows is a few hundred kilobytes of markup, and its padded grid hundreds of megabytes).
 * Then only the header is as wide as the widest row, which is all GFM needs: it pads short rows as it reads them.
 */
export function markdownTable(rows: readonly (readonly string[])[], alignments: readonly (ColumnAlignment | undefined)[] = []): string {
  let width = 0;
  let filled = 0;
  for (const row of rows) {
    width = Math.max(width, row.length);
    filled += row.length;
  }
  if (width === 0) return "";
  const padded = rows.length * width <= 2 * filled;
  const line = (row: readonly string[], index: number): string => {
    const cells: string[] = [];
    const length = padded || index === 0 ? width : row.length;
    for (let i = 0; i < length; i++) cells.push(cell(row[i] ?? ""));
    return `| ${cells.join(" | ")} |`;
  };
  const lines = rows.map(line);
  lines.splice(1, 0, `| ${Array.from({ length: width }, (_, column) => DELIMITER[alignments[column] ?? "none"]).join(" | ")} |`);
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
