import { fail, ok } from "@edge-web/shared";
import type { ArchiveConverter } from "./document-converter.ts";
import { readRelationships } from "./ooxml-relationships.ts";
import { readCoreTitle } from "./ooxml-title.ts";
import { pagesToRead } from "./pages-to-read.ts";
import { readXmlPart } from "./read-xml-part.ts";
import { SheetGrid } from "./sheet-grid.ts";
import { SheetsMarkdown } from "./sheets-markdown.ts";
import { readCellStyles } from "./xlsx-cell-styles.ts";
import { readSharedStrings } from "./xlsx-shared-strings.ts";
import { readWorksheet } from "./xlsx-worksheet.ts";
import { descendantElements } from "./descendant-elements.ts";
import { prefixedAttribute } from "./prefixed-attribute.ts";

const MIME = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
const WORKBOOK = "xl/workbook.xml";

/**
 * Excel workbooks, read directly: sheet order and names from the workbook, cells streamed from each
 * worksheet. Values are shown as their number format shows them (formulas by their cached results; decimals,
 * thousands, percent, currency); numbers whose format is a date or time are written as ISO dates and times.
 * Merged cells show their value in each cell of the range; hidden sheets are skipped, and a line names them.
 */
export const xlsxConverter: ArchiveConverter = {
  reads: "zip",
  format: "XLSX",
  mimes: [MIME, "application/vnd.ms-excel.sheet.macroenabled.12"],
  extensions: ["xlsx", "xlsm"],
  matches: (archive) => archive.has(WORKBOOK),
  async convert(archive, options) {
    const workbook = readXmlPart(archive, WORKBOOK);
    if (!workbook.ok) return workbook;
    if (!workbook.value) return fail("CONVERT_FAILED", `The spreadsheet has no ${WORKBOOK}; it is not an Excel workbook.`);
    const relationships = readRelationships(archive, WORKBOOK);
    if (!relationships.ok) return relationships;
    const targetOf = (type: string): string | undefined => [...relationships.value.values()].find((r) => r.type === type && !r.external)?.target;

    const hidden: string[] = [];
    const sheets = descendantElements(workbook.value, "sheet").flatMap((sheet) => {
      const relationship = relationships.value.get(prefixedAttribute(sheet.attribs, "id") ?? "");
      // Chart sheets and macro sheets have no cells.
      if (relationship?.type !== "worksheet" || relationship.external) return [];
      const name = sheet.attribs.name ?? "";
      if (sheet.attribs.state === "hidden" || sheet.attribs.state === "veryHidden") {
        hidden.push(name);
        return [];
      }
      return [{ name, part: relationship.target }];
    });
    if (sheets.length === 0) return fail("CONVERT_FAILED", hidden.length > 0 ? `The spreadsheet's worksheets are all hidden (${hidden.join(", ")}); hidden sheets are not read.` : "The spreadsheet has no worksheets.");
    // Pages are the worksheets, numbered in the workbook's order.
    const selection = pagesToRead(options.pages, sheets.length, options.maxPages, "sheet");
    if (!selection.ok) return selection;

    const [properties] = descendantElements(workbook.value, "workbookPr");
    const date1904 = ["1", "true"].includes(properties?.attribs.date1904 ?? "");
    const styles = readXmlPart(archive, targetOf("styles") ?? "xl/styles.xml");
    if (!styles.ok) return styles;
    const stringsPart = archive.read(targetOf("sharedStrings") ?? "xl/sharedStrings.xml");
    if (!stringsPart.ok) return stringsPart;
    const sharedStrings = stringsPart.value ? readSharedStrings(stringsPart.value, options.stopMs) : ok([]);
    if (!sharedStrings.ok) return sharedStrings;
    if (sharedStrings.value === "timeout") return fail("CONVERT_TIMEOUT", "The spreadsheet's strings could not be read before the conversion deadline.");
    const title = readCoreTitle(archive);
    if (!title.ok) return title;
    const context = { sharedStrings: sharedStrings.value, ...readCellStyles(styles.value), date1904 };

    const markdown = new SheetsMarkdown(options);
    let stopped = false;
    for (const number of selection.value.numbers) {
      const sheet = sheets[number - 1] as { name: string; part: string };
      // Past the answer's size the rest would be cut anyway.
      if (Date.now() >= options.stopMs || markdown.full) {
        stopped = true;
        break;
      }
      const part = archive.read(sheet.part);
      if (!part.ok) return part;
      const grid = new SheetGrid(options.maxRows);
      const outcome = part.value ? readWorksheet(part.value, context, grid, options.stopMs) : ok("complete");
      if (!outcome.ok) return outcome;
      if (outcome.value === "timeout") {
        stopped = true;
        if (!grid.isEmpty) markdown.add(sheet.name, grid);
        break;
      }
      markdown.add(sheet.name, grid);
    }
    const { content, truncated, sheets: included } = markdown.result(hidden);
    if (included === 0) return fail("CONVERT_TIMEOUT", "The spreadsheet's sheets could not be read before the conversion deadline.");
    return ok({
      provider: "xlsx",
      content,
      ...(title.value && { title: title.value }),
      truncated: truncated || stopped || selection.value.truncated,
      contentType: MIME,
      pages: { total: sheets.length, included },
    });
  },
};
