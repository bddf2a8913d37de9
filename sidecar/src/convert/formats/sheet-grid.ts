import { escapeInline } from "../../extract/markdown-syntax.ts";
import { markdownTable } from "../../extract/markdown-table.ts";

/** A cell's text, repeated over `repeat` columns from `column` (0-based). */
export interface CellRun {
  column: number;
  value: string;
  repeat: number;
}

/** Wider sheets are cut: a Markdown table that wide is unreadable, and a cell at XFD1 would make 16,384 columns. */
const MAX_COLUMNS = 256;
/** Cells filled from merges at most: a merge over a whole sheet must not cost more than the rows kept. */
const MAX_MERGED_CELLS = 1_000_000;
/** Rendered whatever the time (a millisecond's work), so that a table rendered late still shows what the sheet holds. */
const MIN_CELLS = 1000;

/**
 * The cells of one sheet as they are read, row by row in order. Only rows within maxRows are kept, and
 * repeats (ODS writes a million empty rows as one) only cost what is kept. Empty cells are not stored.
 */
export class SheetGrid {
  private readonly rows = new Map<number, string[]>();
  /** One past the last row with content, counting rows past maxRows. */
  private height = 0;
  /** Set when reading stopped at maxRows: rows were left out unread, up to the sheet's declared range if it has one. */
  private unread: { lastRow?: number } | undefined;
  private columnsCut = false;
  private merged = 0;
  private readonly maxRows: number;

  constructor(maxRows: number) {
    this.maxRows = maxRows;
  }

  addRow(index: number, runs: readonly CellRun[], repeat = 1): void {
    const cells: string[] = [];
    for (const { column, value, repeat: times } of runs) {
      if (value === "") continue;
      if (column + times > MAX_COLUMNS) this.columnsCut = true;
      for (let c = column; c < Math.min(column + times, MAX_COLUMNS); c++) cells[c] = value;
    }
    if (cells.length === 0) return;
    this.height = Math.max(this.height, index + repeat);
    for (let row = index; row < Math.min(index + repeat, this.maxRows); row++) this.rows.set(row, cells);
  }

  /**
   * Cells merged into one (rows and columns 0-based, inclusive) show its value in each of them, so a heading over
   * three columns heads each. Merges fill at most MAX_MERGED_CELLS cells in all.
   */
  fillMerged(top: number, left: number, bottom: number, right: number): void {
    const value = this.rows.get(top)?.[left];
    if (value === undefined) return;
    for (let row = top; row <= Math.min(bottom, this.maxRows - 1); row++) {
      // Repeated rows share one array: the row filled gets its own.
      const cells = [...(this.rows.get(row) ?? [])];
      for (let column = left; column <= Math.min(right, MAX_COLUMNS - 1) && this.merged < MAX_MERGED_CELLS; column++, this.merged++) cells[column] ??= value;
      this.rows.set(row, cells);
      this.height = Math.max(this.height, row + 1);
    }
  }

  /** Whether a row (0-based) is within maxRows; past it, readers can stop and call leftUnread. */
  keeps(row: number): boolean {
    return row < this.maxRows;
  }

  /** Rows from maxRows on were not read; lastRow is the last row (1-based) of the sheet's declared range, if known. */
  leftUnread(lastRow?: number): void {
    this.unread = lastRow === undefined ? {} : { lastRow };
  }

  /** Whether any cell had content. */
  get isEmpty(): boolean {
    return this.height === 0;
  }

  /**
   * The sheet as a Markdown table, its first row the header; empty rows and columns around the content are
   * dropped. Rendering stops at maxCells cells (in whole rows, at least one) and in time to finish by
   * deadlineMs. Notes say what was cut, and truncated is set when anything was.
   */
  toMarkdown(limits: { maxCells: number; deadlineMs: number }): { markdown: string; truncated: boolean; cells: number } {
    if (this.rows.size === 0) {
      const notes = this.notes();
      return { markdown: notes.length > 0 ? notes.join("\n\n") : "(empty sheet)", truncated: notes.length > 0, cells: 0 };
    }
    const indexes = [...this.rows.keys()].sort((a, b) => a - b);
    const top = indexes[0] as number;
    const bottom = indexes[indexes.length - 1] as number;
    let left = MAX_COLUMNS;
    let right = 0;
    for (const cells of this.rows.values()) {
      left = Math.min(left, cells.findIndex((cell) => cell !== undefined));
      right = Math.max(right, cells.length);
    }
    const width = right - left;
    const last = Math.min(bottom, top + Math.max(1, Math.floor(limits.maxCells / width)) - 1);
    const always = top + Math.ceil(MIN_CELLS / width);
    // Writing the table from the rows gathered takes about twice as long again: they are gathered for a third of the time left.
    const started = Date.now();
    const gatherUntil = started + (limits.deadlineMs - started) / 3;
    const matrix: string[][] = [];
    let row = top;
    for (; row <= last && (row < always || Date.now() < gatherUntil); row++) {
      const cells = this.rows.get(row) ?? [];
      const line: string[] = [];
      for (let column = left; column < right; column++) line.push(escapeInline(cells[column] ?? ""));
      matrix.push(line);
    }
    const cut = row > bottom ? [] : [`_Rows after row ${row} are left out: ${row > last ? "the answer has no room for more" : "the conversion deadline came"}._`];
    const notes = [...cut, ...this.notes()];
    return { markdown: [markdownTable(matrix), ...notes].join("\n\n"), truncated: notes.length > 0, cells: matrix.length * width };
  }

  private notes(): string[] {
    const notes: string[] = [];
    if (this.unread) {
      const range = this.unread.lastRow !== undefined && this.unread.lastRow > this.maxRows ? `; the sheet's range ends at row ${this.unread.lastRow}` : "";
      notes.push(`_Rows after row ${this.maxRows} are left out${range}._`);
    } else if (this.height > this.maxRows) notes.push(`_The sheet has ${this.height} rows; ${this.height - this.maxRows} after row ${this.maxRows} are left out._`);
    if (this.columnsCut) notes.push(`_Columns after column ${MAX_COLUMNS} are left out._`);
    return notes;
  }
}
