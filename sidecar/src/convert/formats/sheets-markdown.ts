import { escapeInline } from "../../extract/markdown-syntax.ts";
import type { SheetGrid } from "./sheet-grid.ts";

/** Cells rendered across a workbook at most, whatever maxContentChars allows: at three characters or more each, more than an answer can use. */
const MAX_CELLS = 250_000;
/** The fewest characters a rendered cell takes ("|  "): more cells than the characters left allow would be cut away. */
const MIN_CELL_CHARS = 3;

/**
 * A workbook's sheets as Markdown, a "## name" section each holding its table, rendered as each sheet is read
 * so that a reader can stop once more would only be cut: past maxContentChars characters or MAX_CELLS cells.
 */
export class SheetsMarkdown {
  private readonly sections: string[] = [];
  private chars = 0;
  private cells = 0;
  private cut = false;
  private readonly maxContentChars: number;
  private readonly renderUntil: number;

  constructor(limits: { maxContentChars: number; stopMs: number; deadlineMs: number }) {
    this.maxContentChars = limits.maxContentChars;
    // Rendering a sheet read by stopMs (the one reading stopped in, say) is part of assembling the answer: it
    // may take half the margin before the deadline, leaving the rest for the answer to be sent.
    this.renderUntil = (limits.stopMs + limits.deadlineMs) / 2;
  }

  /** Whether another sheet would only be cut away: readers stop reading sheets. */
  get full(): boolean {
    return this.chars >= this.maxContentChars || this.cells >= MAX_CELLS;
  }

  add(name: string, grid: SheetGrid): void {
    const room = Math.ceil((this.maxContentChars - this.chars) / MIN_CELL_CHARS);
    const table = grid.toMarkdown({ maxCells: Math.min(MAX_CELLS - this.cells, room), deadlineMs: this.renderUntil });
    const section = `## ${escapeInline(name)}\n\n${table.markdown}`;
    this.sections.push(section);
    // With the blank line that separates sections.
    this.chars += section.length + 2;
    this.cells += table.cells;
    this.cut ||= table.truncated;
  }

  /** The sections so far, then a line naming the hidden sheets left out, if any; truncated when a table was cut. */
  result(hidden: readonly string[] = []): { content: string; truncated: boolean; sheets: number } {
    const note = hidden.length > 0 ? [`_Hidden sheets are not shown: ${hidden.map(escapeInline).join(", ")}._`] : [];
    return { content: [...this.sections, ...note].join("\n\n"), truncated: this.cut, sheets: this.sections.length };
  }
}
