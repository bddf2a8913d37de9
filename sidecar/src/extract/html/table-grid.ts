import type { Element } from "domhandler";

/** A data table's cells laid out in rows and columns, as its spans place them. */

/** As browsers do, but lower: a colspan of thousands would only produce empty cells. */
const MAX_COLSPAN = 100;

function spanOf(value: string | undefined, max: number): number {
  const span = Number.parseInt(value ?? "", 10);
  return Number.isInteger(span) && span > 1 ? Math.min(span, max) : 1;
}

/** How many columns a cell spans. */
export const colspan = (cell: Element): number => spanOf(cell.attribs.colspan, MAX_COLSPAN);

/**
 * The grid of a table's rows: each cell's text in the first of the columns it spans, the others empty; the columns a
 * cell spans in the rows below it are empty in those rows, so their own cells stand under their headers ("| | Q2 | 12 |"
 * under "| North | Q1 | 10 |", not "Q2" under the regions). Written once, not repeated down: the text is the page's.
 *
 * The empty cells a span adds are at most as many as the table has cells: a row of cells spanning thousands of empty
 * rows is a few kilobytes of markup, and its grid megabytes. Past that, rows keep their own cells only.
 */
export function tableGrid(rows: readonly (readonly Element[])[], text: (cell: Element) => string): string[][] {
  let budget = 0;
  for (const cells of rows) budget += cells.length;
  // Per column, how many more rows a cell above still spans.
  const spanned: number[] = [];
  const grid: string[][] = [];
  const taken = (column: number): boolean => (spanned[column] ?? 0) > 0 && budget > 0;
  const skip = (row: string[]): void => {
    spanned[row.length] = (spanned[row.length] ?? 0) - 1;
    budget--;
    row.push("");
  };
  for (const [index, cells] of rows.entries()) {
    const row: string[] = [];
    for (const cell of cells) {
      while (taken(row.length)) skip(row);
      const value = text(cell);
      const down = Math.min(spanOf(cell.attribs.rowspan, rows.length), rows.length - index) - 1;
      const columns = colspan(cell);
      for (let column = 0; column < columns; column++) {
        if (down > 0) spanned[row.length] = down;
        row.push(column === 0 ? value : "");
      }
    }
    // Columns spanned from above past the row's own cells. Spans ended at the end are cut off, so each column is
    // looked at again only if a span is set in it again.
    let last = spanned.length - 1;
    while (last >= row.length && !taken(last)) last--;
    spanned.length = budget > 0 ? Math.max(last + 1, row.length) : 0;
    while (row.length <= last && budget > 0) {
      if (taken(row.length)) skip(row);
      else {
        row.push("");
        budget--;
      }
    }
    grid.push(row);
  }
  return grid;
}
