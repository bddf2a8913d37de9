import type { Document } from "domhandler";
import { type DateStyle, dateStyleOf } from "./excel-date.ts";
import { childElements } from "./child-elements.ts";
import { descendantElements } from "./descendant-elements.ts";

/** Built-in number formats that are not dates (ECMA-376 18.8.30); the currency ones (5–8) depend on the locale and are left out. */
const BUILT_IN_NUMBER_FORMATS: ReadonlyMap<number, string> = new Map([
  [1, "0"],
  [2, "0.00"],
  [3, "#,##0"],
  [4, "#,##0.00"],
  [9, "0%"],
  [10, "0.00%"],
  [11, "0.00E+00"],
  [37, "#,##0 ;(#,##0)"],
  [38, "#,##0 ;[Red](#,##0)"],
  [39, "#,##0.00;(#,##0.00)"],
  [40, "#,##0.00;[Red](#,##0.00)"],
  [48, "##0.0E+0"],
]);

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
    const code = byFormat.get(id) ?? BUILT_IN_NUMBER_FORMATS.get(id);
    if (style) cellStyles.dateStyles.set(index, style);
    else if (code !== undefined) cellStyles.numberFormats.set(index, code);
  }
  return cellStyles;
}
