import type { Document } from "domhandler";
import { type DateStyle, dateStyleOf } from "./excel-date.ts";
import { childElements } from "./child-elements.ts";
import { descendantElements } from "./descendant-elements.ts";
import { numberFormatCode } from "./number-format-text.ts";

/** How each cell format (a cell's s attribute indexes cellXfs) shows numbers: as a date or time, or by a number format code. */
export interface CellStyles {
  dateStyles: Map<number, DateStyle>;
  numberFormats: Map<number, string>;
}

export function readCellStyles(styles: Document | undefined): CellStyles {
  const byFormat = new Map<number, string>();
  const cellStyles: CellStyles = { dateStyles: new Map(), numberFormats: new Map() };
  if (!styles) return cellStyles;
  for (const format of descendantElements(styles, "numFmt")) {
    const { numFmtId, formatCode } = format.attribs;
    if (numFmtId !== undefined && formatCode !== undefined) byFormat.set(Number(numFmtId), formatCode);
  }
  const [cellFormats] = descendantElements(styles, "cellXfs");
  for (const [index, xf] of (cellFormats ? childElements(cellFormats, "xf") : []).entries()) {
    const id = Number(xf.attribs.numFmtId ?? 0);
    const style = dateStyleOf(id, byFormat.get(id));
    const code = numberFormatCode(id, byFormat.get(id));
    if (style) cellStyles.dateStyles.set(index, style);
    else if (code !== undefined) cellStyles.numberFormats.set(index, code);
  }
  return cellStyles;
}
