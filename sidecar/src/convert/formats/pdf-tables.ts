/**
 * Tables found in a PDF page's text layout. A table is a run of consecutive lines split into two or more
 * segments (cells set apart by gutter-wide gaps), whose segments line up in the same columns: the columns are
 * the x-ranges the cells of all its rows cover together, so a cell that straddles two columns merges them.
 * Conservative by design, so prose never turns into a grid: at least two columns and three rows (two rows with
 * three columns or more); columns of prose-length lines (two text columns side by side) are not a table; a
 * line of one cell inside a table (a sparse row) stays in it only between rows of several cells.
 */

/** A line's piece between gutters, as pdf-layout.ts splits lines. */
export interface TableSegment {
  text: string;
  left: number;
  right: number;
  y: number;
  size: number;
}

export interface FoundTable<S extends TableSegment> {
  /** Cells by row, top down; "" where a row has nothing in a column. */
  rows: string[][];
  /** Each row's baseline. */
  ys: number[];
  /** The segments the table is made of, which the page's text flow leaves out. */
  segments: Set<S>;
  /** The baselines of its first and last rows. */
  top: number;
  bottom: number;
}

/** Baselines within this share of the font size are one row. */
const SAME_ROW = 0.5;
/** Rows further apart than this many font sizes are not one table. */
const MAX_ROW_GAP = 2.5;
/** Columns whose cells are mostly this long (characters) or longer are prose; a table has at least one column of shorter cells. */
const PROSE_CHARS = 15;
/** Cells of one column may overlap the next column's range by this share of the font size before the two merge. */
const COLUMN_SLACK = 0.2;

interface Row<S> {
  y: number;
  size: number;
  cells: S[];
}

function rowsOf<S extends TableSegment>(segments: readonly S[]): Row<S>[] {
  const rows: Row<S>[] = [];
  for (const segment of [...segments].sort((a, b) => b.y - a.y || a.left - b.left)) {
    const row = rows[rows.length - 1];
    if (row && Math.abs(row.y - segment.y) < SAME_ROW * Math.min(row.size, segment.size)) row.cells.push(segment);
    else rows.push({ y: segment.y, size: segment.size, cells: [segment] });
  }
  for (const row of rows) row.cells.sort((a, b) => a.left - b.left);
  return rows;
}

/** The columns' x-ranges: every cell's range, overlapping ones merged. */
function columnsOf(rows: readonly Row<TableSegment>[]): { left: number; right: number }[] {
  const ranges = rows.flatMap(({ cells }) => cells.map(({ left, right, size }) => ({ left, right, slack: COLUMN_SLACK * size }))).sort((a, b) => a.left - b.left);
  const columns: { left: number; right: number }[] = [];
  for (const { left, right, slack } of ranges) {
    const last = columns[columns.length - 1];
    if (last && left < last.right - slack) last.right = Math.max(last.right, right);
    else columns.push({ left, right });
  }
  return columns;
}

const upperQuartile = (lengths: number[]): number => lengths.sort((a, b) => a - b)[Math.floor((lengths.length * 3) / 4)] ?? 0;

function tableOf<S extends TableSegment>(run: readonly Row<S>[]): FoundTable<S> | undefined {
  const columns = columnsOf(run);
  if (columns.length < 2 || run.length < (columns.length >= 3 ? 2 : 3)) return undefined;
  const rows = run.map(({ cells }) => {
    const row = columns.map(() => "");
    for (const cell of cells) {
      const index = columns.findIndex((column) => cell.left >= column.left - 0.01 && cell.left <= column.right);
      row[index] = row[index] ? `${row[index]} ${cell.text}` : cell.text;
    }
    return row;
  });
  const prose = columns.every((_, index) => upperQuartile(rows.map((row) => (row[index] ?? "").length).filter((length) => length > 0)) >= PROSE_CHARS);
  if (prose) return undefined;
  return {
    rows,
    ys: run.map(({ y }) => y),
    segments: new Set(run.flatMap(({ cells }) => cells)),
    top: (run[0] as Row<S>).y,
    bottom: (run[run.length - 1] as Row<S>).y,
  };
}

/** The page's tables, top down. */
export function findTables<S extends TableSegment>(segments: readonly S[]): FoundTable<S>[] {
  const rows = rowsOf(segments);
  const tables: FoundTable<S>[] = [];
  let run: Row<S>[] = [];
  const close = () => {
    // A run ends on a row of several cells: a single cell after the table is text below it.
    while (run.length > 0 && (run[run.length - 1] as Row<S>).cells.length < 2) run.pop();
    const table = run.length > 0 ? tableOf(run) : undefined;
    if (table) tables.push(table);
    run = [];
  };
  for (const [index, row] of rows.entries()) {
    const previous = run[run.length - 1];
    const near = previous !== undefined && previous.y - row.y <= MAX_ROW_GAP * Math.max(previous.size, row.size);
    const next = rows[index + 1];
    const several = row.cells.length >= 2;
    // A sparse row (one cell) continues a table only when a row of several cells follows it closely.
    const sparse = !several && next !== undefined && next.cells.length >= 2 && row.y - next.y <= MAX_ROW_GAP * row.size;
    if (previous && near && (several || sparse)) {
      run.push(row);
      continue;
    }
    close();
    if (several) run.push(row);
  }
  close();
  return tables;
}
