import type { Document } from "domhandler";
import { type DateStyle, dateStyleOf } from "./excel-date.ts";
import { childElements } from "./child-elements.ts";
import { descendantElements } from "./descendant-elements.ts";

/** The date style of each cell format (a cell's s attribute indexes cellXfs) whose number format shows a date or time. */
export function readDateStyles(styles: Document | undefined): Map<number, DateStyle> {
  const byFormat = new Map<number, string>();
  const dateStyles = new Map<number, DateStyle>();
  if (!styles) return dateStyles;
  for (const format of descendantElements(styles, "numFmt")) {
    const { numFmtId, formatCode } = format.attribs;
    if (numFmtId !== undefined && formatCode !== undefined) byFormat.set(Number(numFmtId), formatCode);
  }
  const [cellFormats] = descendantElements(styles, "cellXfs");
  for (const [index, xf] of (cellFormats ? childElements(cellFormats, "xf") : []).entries()) {
    const id = Number(xf.attribs.numFmtId ?? 0);
    const style = dateStyleOf(id, byFormat.get(id));
    if (style) dateStyles.set(index, style);
  }
  return dateStyles;
}
