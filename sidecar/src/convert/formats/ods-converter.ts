import { fail, ok } from "@edge-web/shared";
import { textContent } from "../../extract/dom.ts";
import { oneLine } from "../../extract/whitespace.ts";
import { hasOdfMimetype } from "../../sniff/odf-mimetype.ts";
import type { ArchiveConverter } from "./document-converter.ts";
import { pagesToRead } from "./pages-to-read.ts";
import { parsePageSelection } from "./parse-page-selection.ts";
import { readXmlPart } from "./read-xml-part.ts";
import { type CellRun, SheetGrid } from "./sheet-grid.ts";
import { SheetsMarkdown } from "./sheets-markdown.ts";
import { streamXml } from "./stream-xml.ts";
import { descendantElements } from "./descendant-elements.ts";
import { prefixedAttribute } from "./prefixed-attribute.ts";

const MIME = "application/vnd.oasis.opendocument.spreadsheet";

/** The attribute holding a cell's value, by its value type; used when the cell shows no text. A Map, as the key comes from the document. */
const VALUE_ATTRIBUTES: ReadonlyMap<string, string> = new Map([
  ["float", "value"],
  ["percentage", "value"],
  ["currency", "value"],
  ["date", "date-value"],
  ["time", "time-value"],
  ["boolean", "boolean-value"],
]);

/** Columns a merged cell fills at most (sheets are cut at 256 columns anyway). */
const MAX_SPAN = 256;

/** Spaces a single <text:s c="…"/> may stand for. */
const MAX_SPACES = 100;

/** A repeat count: a positive integer, 1 when absent or invalid. */
function repeatCount(value: string | undefined): number {
  const count = Number(value ?? 1);
  return Number.isInteger(count) && count > 0 ? count : 1;
}

interface OdsSheet {
  name: string;
  grid: SheetGrid;
}

/**
 * OpenDocument spreadsheets, streamed from content.xml. A cell shows its text (the value as formatted),
 * or its typed value when it has no text. Repeated rows and cells (a sheet's million empty rows are one
 * element) cost only the rows and columns kept, and each sheet is rendered as it ends, so that sheets past
 * the answer's size are not built at all. Merged cells show their value in each cell they cover; hidden sheets
 * are skipped, and a line names them.
 */
export const odsConverter: ArchiveConverter = {
  reads: "zip",
  format: "ODS",
  mimes: [MIME],
  extensions: ["ods"],
  matches: (archive, bytes) => archive.has("content.xml") && hasOdfMimetype(bytes, MIME),
  async convert(archive, options) {
    const ranges = options.pages === undefined ? undefined : parsePageSelection(options.pages);
    if (ranges && !ranges.ok) return ranges;
    const content = archive.read("content.xml");
    if (!content.ok) return content;
    if (!content.value) return fail("CONVERT_FAILED", "The spreadsheet has no content.xml; it is not an OpenDocument spreadsheet.");
    const meta = readXmlPart(archive, "meta.xml");
    if (!meta.ok) return meta;
    const [titleElement] = meta.value ? descendantElements(meta.value, "title") : [];
    const title = titleElement && oneLine(textContent(titleElement));

    // The selection is applied as sheets stream past (how many there are is known only at the end), then
    // checked against that count as the other paged formats check theirs.
    const selected = (number: number): boolean => ranges?.value.some(({ first, last }) => number >= first && number <= last) ?? true;
    const markdown = new SheetsMarkdown(options);
    let kept = 0;
    let leftOut = false;
    let total = 0;
    let tableDepth = 0;
    let sheet: OdsSheet | undefined;
    let row = 0;
    let rowRepeat = 1;
    let runs: CellRun[] = [];
    let column = 0;
    let cell: { repeat: number; value: string; paragraphs: string[]; covered: boolean; columns: number; rows: number } | undefined;
    // Merged cells: the value of the cell spanning each covered column, to the last row it spans.
    const spans = new Map<number, { value: string; lastRow: number }>();
    // Table styles that hide their sheet (table:display="false"), and the hidden sheets' names.
    const hiddenStyles = new Set<string>();
    const hidden: string[] = [];
    let tableStyle: string | undefined;
    let paragraph: string | undefined;
    let annotation = 0;

    const outcome = streamXml(
      content.value,
      {
        open(name, attributes) {
          if (tableDepth === 0 && name === "style") tableStyle = prefixedAttribute(attributes, "family") === "table" ? prefixedAttribute(attributes, "name") : undefined;
          if (tableDepth === 0 && name === "table-properties" && tableStyle !== undefined && prefixedAttribute(attributes, "display") === "false") hiddenStyles.add(tableStyle);
          if (name === "table") {
            if (++tableDepth !== 1) return;
            if (hiddenStyles.has(prefixedAttribute(attributes, "style-name") ?? "")) {
              hidden.push(prefixedAttribute(attributes, "name") ?? "");
              sheet = undefined;
              return;
            }
            spans.clear();
            total++;
            const wanted = selected(total) && kept < options.maxPages;
            // Past the answer's size, sheets are only counted.
            sheet = wanted && !markdown.full ? { name: prefixedAttribute(attributes, "name") ?? `Sheet${total}`, grid: new SheetGrid(options.maxRows) } : undefined;
            if (sheet) kept++;
            else if (wanted) leftOut = true;
            row = 0;
            return;
          }
          // Tables nested in cells or shapes are not read.
          if (tableDepth !== 1 || !sheet) return;
          switch (name) {
            case "table-row":
              rowRepeat = repeatCount(prefixedAttribute(attributes, "number-rows-repeated"));
              runs = [];
              column = 0;
              return;
            case "table-cell":
            case "covered-table-cell": {
              const valueAttribute = VALUE_ATTRIBUTES.get(prefixedAttribute(attributes, "value-type") ?? "");
              const value = valueAttribute ? (prefixedAttribute(attributes, valueAttribute) ?? "") : "";
              cell = {
                repeat: repeatCount(prefixedAttribute(attributes, "number-columns-repeated")),
                value,
                paragraphs: [],
                covered: name === "covered-table-cell",
                columns: repeatCount(prefixedAttribute(attributes, "number-columns-spanned")),
                rows: repeatCount(prefixedAttribute(attributes, "number-rows-spanned")),
              };
              return;
            }
            case "annotation":
              annotation++;
              return;
          }
          if (!cell || annotation > 0) return;
          if (name === "p" || name === "h") paragraph = "";
          else if (paragraph !== undefined && name === "s") paragraph += " ".repeat(Math.min(repeatCount(prefixedAttribute(attributes, "c")), MAX_SPACES));
          else if (paragraph !== undefined && name === "tab") paragraph += "\t";
          else if (paragraph !== undefined && name === "line-break") paragraph += "\n";
        },
        text(text) {
          if (paragraph !== undefined && annotation === 0) paragraph += text;
        },
        close(name) {
          if (name === "table") {
            tableDepth--;
            if (tableDepth === 0 && sheet) {
              markdown.add(sheet.name, sheet.grid);
              sheet = undefined;
            }
            return;
          }
          if (tableDepth !== 1 || !sheet) return;
          switch (name) {
            case "annotation":
              annotation--;
              return;
            case "p":
            case "h":
              if (cell && paragraph !== undefined && annotation === 0) cell.paragraphs.push(paragraph);
              paragraph = undefined;
              return;
            case "table-cell":
            case "covered-table-cell":
              if (cell) {
                const text = cell.paragraphs.join("\n");
                const value = text.trim() === "" ? cell.value : text;
                if (cell.covered && value === "") {
                  for (let at = column; at < column + Math.min(cell.repeat, MAX_SPAN); at++) {
                    const span = spans.get(at);
                    if (span && row <= span.lastRow) runs.push({ column: at, value: span.value, repeat: 1 });
                  }
                } else runs.push({ column, value, repeat: cell.repeat });
                if (!cell.covered && (cell.columns > 1 || cell.rows > 1) && value !== "") {
                  for (let at = column; at < column + Math.min(cell.columns, MAX_SPAN); at++) spans.set(at, { value, lastRow: row + cell.rows - 1 });
                }
                column += cell.repeat;
              }
              cell = undefined;
              return;
            case "table-row":
              sheet.grid.addRow(row, runs, rowRepeat);
              row += rowRepeat;
              runs = [];
          }
        },
      },
      options.stopMs,
    );
    if (!outcome.ok) return outcome;
    const stopped = outcome.value === "timeout";
    // Stopped part way, the sheets read so far are what there is (the current one if it has content).
    if (stopped && sheet && !sheet.grid.isEmpty) markdown.add(sheet.name, sheet.grid);
    const rendered = markdown.result(hidden);
    if (stopped && rendered.sheets === 0) return fail("CONVERT_TIMEOUT", "The spreadsheet could not be read before the conversion deadline.");
    if (total === 0) return fail("CONVERT_FAILED", hidden.length > 0 ? `The spreadsheet's sheets are all hidden (${hidden.join(", ")}); hidden sheets are not read.` : "The spreadsheet has no sheets.");
    const selection = stopped ? ok({ truncated: true }) : pagesToRead(options.pages, total, options.maxPages, "sheet");
    if (!selection.ok) return selection;
    return ok({
      provider: "ods",
      content: rendered.content,
      ...(title && { title }),
      truncated: rendered.truncated || leftOut || selection.value.truncated,
      contentType: MIME,
      pages: { total, included: rendered.sheets },
    });
  },
};
