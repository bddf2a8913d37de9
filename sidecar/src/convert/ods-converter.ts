import { fail, ok } from "@edge-web/shared";
import { textContent } from "../extract/dom.ts";
import { oneLine } from "../extract/whitespace.ts";
import type { DocumentConverter } from "./document-converter.ts";
import { pagesToRead, parsePageSelection } from "./page-selection.ts";
import { readXmlPart } from "./read-xml-part.ts";
import { type CellRun, SheetGrid } from "./sheet-grid.ts";
import { sheetsMarkdown } from "./sheets-markdown.ts";
import { streamXml } from "./stream-xml.ts";
import { descendantElements, prefixedAttribute } from "./xml-elements.ts";
import { openZipArchive } from "./zip-archive.ts";

const MIME = "application/vnd.oasis.opendocument.spreadsheet";
/** ODF puts this first, stored, so the type shows at a fixed place in the bytes (the entry name, then its content). */
const SIGNATURE = `mimetype${MIME}`;

/** The attribute holding a cell's value, by its value type; used when the cell shows no text. */
const VALUE_ATTRIBUTES: Readonly<Record<string, string>> = {
  float: "value",
  percentage: "value",
  currency: "value",
  date: "date-value",
  time: "time-value",
  boolean: "boolean-value",
};

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
 * element) cost only the rows and columns kept.
 */
export const odsConverter: DocumentConverter = {
  format: "ODS",
  mime: MIME,
  mimes: [MIME],
  extensions: ["ods"],
  matches: ({ bytes, archive }) => (archive?.has("content.xml") ?? false) && new TextDecoder("latin1").decode(bytes.subarray(30, 30 + SIGNATURE.length)) === SIGNATURE,
  async convert(bytes, options) {
    const ranges = options.pages === undefined ? undefined : parsePageSelection(options.pages);
    if (ranges && !ranges.ok) return ranges;
    const opened = openZipArchive(bytes, options.maxUnzippedBytes);
    if (!opened.ok) return opened;
    const content = opened.value.read("content.xml");
    if (!content.ok) return content;
    if (!content.value) return fail("CONVERT_FAILED", "The spreadsheet has no content.xml; it is not an OpenDocument spreadsheet.");
    const meta = readXmlPart(opened.value, "meta.xml");
    if (!meta.ok) return meta;
    const [titleElement] = meta.value ? descendantElements(meta.value, "title") : [];
    const title = titleElement && oneLine(textContent(titleElement));

    // Sheets are kept as they stream past: those selected, up to maxPages.
    const selected = (number: number): boolean => ranges?.value.some(({ first, last }) => number >= first && number <= last) ?? true;
    const sheets: OdsSheet[] = [];
    let total = 0;
    let tableDepth = 0;
    let sheet: OdsSheet | undefined;
    let row = 0;
    let rowRepeat = 1;
    let runs: CellRun[] = [];
    let column = 0;
    let cell: { repeat: number; value: string; paragraphs: string[] } | undefined;
    let paragraph: string | undefined;
    let annotation = 0;

    const outcome = streamXml(
      content.value,
      {
        open(name, attributes) {
          if (name === "table") {
            if (++tableDepth !== 1) return;
            total++;
            sheet = selected(total) && sheets.length < options.maxPages ? { name: prefixedAttribute(attributes, "name") ?? `Sheet${total}`, grid: new SheetGrid(options.maxRows) } : undefined;
            if (sheet) sheets.push(sheet);
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
              const valueAttribute = VALUE_ATTRIBUTES[prefixedAttribute(attributes, "value-type") ?? ""];
              const value = valueAttribute ? (prefixedAttribute(attributes, valueAttribute) ?? "") : "";
              cell = { repeat: repeatCount(prefixedAttribute(attributes, "number-columns-repeated")), value, paragraphs: [] };
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
            if (tableDepth === 0) sheet = undefined;
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
                runs.push({ column, value: text.trim() === "" ? cell.value : text, repeat: cell.repeat });
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
      options.deadlineMs,
    );
    if (!outcome.ok) return outcome;
    const stopped = outcome.value === "timeout";
    // Stopped part way, the sheets read so far are what there is (the current one if it has content).
    const shown = stopped ? sheets.filter((read) => read !== sheet || !read.grid.isEmpty) : sheets;
    if (stopped && shown.length === 0) return fail("CONVERT_TIMEOUT", "The spreadsheet could not be read before the conversion deadline.");
    if (total === 0) return fail("CONVERT_FAILED", "The spreadsheet has no sheets.");
    // Read through, the selection is checked against the sheets found; those kept are exactly the ones it names.
    const selection = stopped ? ok({ truncated: true }) : pagesToRead(options.pages, total, options.maxPages, "sheet");
    if (!selection.ok) return selection;
    const markdown = sheetsMarkdown(shown);
    return ok({
      provider: "ods",
      content: markdown.content,
      ...(title && { title }),
      truncated: markdown.truncated || selection.value.truncated,
      contentType: MIME,
      pages: { total, included: shown.length },
    });
  },
};
