import type { Result } from "@edge-web/shared";
import { type DateStyle, formatSerialDate } from "./excel-date.ts";
import { numberFormatText } from "./number-format-text.ts";
import type { CellRun, SheetGrid } from "./sheet-grid.ts";
import { streamXml } from "./stream-xml.ts";

/** What cells refer to outside their sheet. */
export interface WorkbookContext {
  sharedStrings: readonly string[];
  dateStyles: ReadonlyMap<number, DateStyle>;
  /** Number format codes of the cell formats that are not dates. */
  numberFormats: ReadonlyMap<number, string>;
  date1904: boolean;
}

/** "AB12" → column 27 (0-based); undefined when the reference is not a cell reference. */
function columnOf(reference: string): number | undefined {
  const letters = /^([A-Z]{1,3})\d+$/i.exec(reference)?.[1];
  if (!letters) return undefined;
  let column = 0;
  for (const letter of letters.toUpperCase()) column = column * 26 + letter.charCodeAt(0) - 64;
  return column - 1;
}

/** "AB12" → 12 (1-based, as the reference writes it); undefined when the reference is not a cell reference. */
function rowOf(reference: string): number | undefined {
  const digits = /^[A-Z]{1,3}(\d+)$/i.exec(reference)?.[1];
  return digits === undefined ? undefined : Number(digits);
}

/** A number as a spreadsheet shows it by default: 15 significant digits, so 0.1 + 0.2 reads 0.3. */
function formatNumber(raw: string): string {
  const value = Number(raw);
  return raw.trim() === "" || !Number.isFinite(value) ? raw : String(Number(value.toPrecision(15)));
}

function cellText(type: string, raw: string, inline: string, style: number, context: WorkbookContext): string {
  switch (type) {
    case "s":
      return context.sharedStrings[Number(raw)] ?? "";
    case "inlineStr":
      return inline;
    case "b":
      return raw === "1" ? "TRUE" : raw === "0" ? "FALSE" : raw;
    case "str":
    case "e":
    case "d":
      return raw;
    default: {
      if (raw.trim() === "") return raw;
      const dateStyle = context.dateStyles.get(style);
      if (dateStyle) return formatSerialDate(Number(raw), dateStyle, context.date1904) ?? formatNumber(raw);
      const code = context.numberFormats.get(style);
      return (code !== undefined && numberFormatText(Number(raw), code)) || formatNumber(raw);
    }
  }
}

/**
 * Streams one worksheet's cells into the grid: values (<v>), inline strings (<is>), rows and columns by
 * their references, and merged ranges (which follow the cells) filled with their value. Reading stops at the
 * first row past the grid's maxRows.
 */
export function readWorksheet(bytes: Uint8Array, context: WorkbookContext, grid: SheetGrid, deadlineMs: number): Result<"complete" | "stopped" | "timeout", "CONVERT_FAILED"> {
  let lastRow: number | undefined;
  let row = -1;
  let runs: CellRun[] = [];
  let nextColumn = 0;
  let cell: { column: number; type: string; style: number } | undefined;
  let raw = "";
  let inline = "";
  let capture: "value" | "inline" | undefined;
  let inInline = false;
  let phonetic = 0;
  return streamXml(
    bytes,
    {
      open(name, attributes) {
        switch (name) {
          case "dimension":
            lastRow = rowOf(attributes.ref?.split(":").pop() ?? "");
            return;
          case "mergeCell": {
            const [from = "", to = from] = (attributes.ref ?? "").split(":");
            const [left, top, right, bottom] = [columnOf(from), rowOf(from), columnOf(to), rowOf(to)];
            if (left !== undefined && top !== undefined && right !== undefined && bottom !== undefined) grid.fillMerged(top - 1, left, bottom - 1, right);
            return;
          }
          case "row": {
            const number = Number(attributes.r);
            row = Number.isInteger(number) && number > row + 1 ? number - 1 : row + 1;
            if (!grid.keeps(row)) {
              grid.leftUnread(lastRow);
              return false;
            }
            runs = [];
            nextColumn = 0;
            return;
          }
          case "c": {
            const column = columnOf(attributes.r ?? "") ?? nextColumn;
            cell = { column, type: attributes.t ?? "n", style: Number(attributes.s ?? 0) };
            nextColumn = column + 1;
            raw = "";
            inline = "";
            return;
          }
          case "v":
            capture = "value";
            return;
          case "is":
            inInline = true;
            return;
          case "rPh":
            phonetic++;
            return;
          case "t":
            if (inInline && phonetic === 0) capture = "inline";
        }
      },
      text(text) {
        if (capture === "value") raw += text;
        else if (capture === "inline") inline += text;
      },
      close(name) {
        switch (name) {
          case "v":
          case "t":
            capture = undefined;
            return;
          case "is":
            inInline = false;
            return;
          case "rPh":
            phonetic--;
            return;
          case "c":
            if (cell && row >= 0) runs.push({ column: cell.column, value: cellText(cell.type, raw, inline, cell.style, context), repeat: 1 });
            cell = undefined;
            return;
          case "row":
            grid.addRow(row, runs);
            runs = [];
        }
      },
    },
    deadlineMs,
  );
}
