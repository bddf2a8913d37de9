import { describe, expect, it } from "vitest";
import { convertDocument } from "../src/convert/service/convert-document.ts";
import { SheetGrid } from "../src/convert/formats/sheet-grid.ts";
import { buildOds, buildXlsx, buildZipBomb, documentOptions, type XlsxCell } from "./support/document-fixtures.ts";
import { buildZip } from "./support/document-zip.ts";

const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
const ODS = "application/vnd.oasis.opendocument.spreadsheet";

async function converted(bytes: Uint8Array, overrides: Parameters<typeof documentOptions>[0] = {}) {
  const result = await convertDocument(bytes, {}, documentOptions(overrides));
  if (!result.ok) throw new Error(`conversion failed: ${result.error.message}`);
  return result.value;
}

const workbook = buildXlsx({
  title: "Sales 2024",
  sheets: [
    {
      name: "Orders",
      rows: [
        ["Item", "Qty", "Shipped", "Paid", "Note"],
        ["Apple", 3, { date: 45292 }, true, { inline: "fresh | crisp" }],
        [],
        ["Pear", 0.1 + 0.2, null, false, "*ripe*"],
      ],
    },
    { name: "Totals", rows: [[null, null], [null, "Sum", 3.3]] },
    { name: "Empty", rows: [] },
  ],
});

describe("convertDocument: XLSX", () => {
  it("writes each sheet as a section with a table, the first row as header", async () => {
    const document = await converted(workbook);
    expect(document).toMatchObject({ provider: "xlsx", contentType: XLSX, title: "Sales 2024", truncated: false, pages: { total: 3, included: 3 } });
    expect(document.content).toBe(
      [
        "## Orders",
        [
          "| Item | Qty | Shipped | Paid | Note |",
          "| --- | --- | --- | --- | --- |",
          "| Apple | 3 | 2024-01-01 | TRUE | fresh \\| crisp |",
          "|  |  |  |  |  |",
          "| Pear | 0.3 | | FALSE | \\*ripe\\* |".replace("| |", "|  |"),
        ].join("\n"),
        "## Totals",
        "| Sum | 3.3 |\n| --- | --- |",
        "## Empty",
        "(empty sheet)",
      ].join("\n\n"),
    );
  });

  it("reads only the selected sheets", async () => {
    const document = await converted(workbook, { pages: "2" });
    expect(document.content).toBe("## Totals\n\n| Sum | 3.3 |\n| --- | --- |");
    expect(document.pages).toEqual({ total: 3, included: 1 });
  });

  it("reads at most maxPages sheets", async () => {
    const document = await converted(workbook, { maxPages: 1 });
    expect(document.pages).toEqual({ total: 3, included: 1 });
    expect(document.truncated).toBe(true);
  });

  it("refuses a selection naming no sheet of the workbook", async () => {
    const result = await convertDocument(workbook, {}, documentOptions({ pages: "4" }));
    expect(result).toEqual({ ok: false, error: { code: "INVALID_INPUT", message: 'The document has 3 sheets; the selection "4" names none of them.' } });
  });

  it("cuts a sheet at maxRows, saying how many rows were left out", async () => {
    const rows: XlsxCell[][] = [["n"], ...Array.from({ length: 1499 }, (_, i) => [i + 1])];
    const document = await converted(buildXlsx({ sheets: [{ name: "Long", rows }] }), { maxRows: 1000 });
    expect(document.truncated).toBe(true);
    const lines = document.content.split("\n");
    // The header, the rule under it and 999 rows.
    expect(lines.filter((line) => line.startsWith("| ")).length).toBe(1001);
    // Reading stops at row 1001; the sheet's declared range says how far it goes.
    expect(lines.at(-1)).toBe("_Rows after row 1000 are left out; the sheet's range ends at row 1500._");
  });

  it("cuts sheets wider than 256 columns", async () => {
    const wide: XlsxCell[] = Array.from({ length: 300 }, (_, i) => (i === 0 || i === 299 ? `c${i}` : null));
    const document = await converted(buildXlsx({ sheets: [{ name: "Wide", rows: [wide] }] }));
    expect(document.truncated).toBe(true);
    expect(document.content).toContain("_Columns after column 256 are left out._");
    expect(document.content).not.toContain("c299");
  });

  it("answers what it read when the deadline stops it inside a large sheet", async () => {
    const rows: XlsxCell[][] = Array.from({ length: 60_000 }, (_, i) => [i, i * 2, i * 3]);
    const bytes = buildXlsx({ sheets: [{ name: "Big", rows }] });
    // Half the time a full read takes here: enough to unpack the sheet and read part of it, on any machine.
    const fullStarted = Date.now();
    const limits = { maxRows: 1_000_000, maxContentChars: 100_000_000 };
    expect((await converted(bytes, limits)).truncated).toBe(false);
    const budget = (Date.now() - fullStarted) / 2;
    const deadlineMs = Date.now() + budget;
    const document = await converted(bytes, { ...limits, deadlineMs });
    // Reading stops a margin before the deadline, so the answer is ready by then.
    expect(Date.now()).toBeLessThan(deadlineMs);
    expect(document.truncated).toBe(true);
    expect(document.content).toContain("\n| 1 | 2 | 3 |\n");
    expect(document.content).not.toContain("| 59999 | 119998 | 179997 |");
  });

  it("stops reading sheets once the Markdown is past maxContentChars", async () => {
    const document = await converted(workbook, { maxContentChars: 40 });
    expect(document).toMatchObject({ truncated: true, pages: { total: 3, included: 1 } });
    expect(document.content).toBe((await converted(workbook)).content.slice(0, 40));
  });

  it("fails with CONVERT_TIMEOUT when the deadline passes before any sheet is read", async () => {
    const rows: XlsxCell[][] = Array.from({ length: 100_000 }, (_, i) => [`text ${i}`]);
    const result = await convertDocument(buildXlsx({ sheets: [{ name: "Strings", rows }] }), {}, documentOptions({ deadlineMs: Date.now() + 5 }));
    expect(result.ok === false && result.error.code).toBe("CONVERT_TIMEOUT");
  });

  it("fails with CONVERT_FAILED on a worksheet nested absurdly deep", async () => {
    const deep = `<worksheet><sheetData>${"<row>".repeat(100_000)}</sheetData></worksheet>`;
    const bytes = buildZip([
      { name: "xl/workbook.xml", data: '<workbook xmlns:r="r"><sheets><sheet name="S" r:id="rId1"/></sheets></workbook>' },
      { name: "xl/_rels/workbook.xml.rels", data: '<Relationships><Relationship Id="rId1" Type="x/worksheet" Target="worksheets/sheet1.xml"/></Relationships>' },
      { name: "xl/worksheets/sheet1.xml", data: deep },
    ]);
    // The reader stops at its nesting cap rather than walking all 100,000 levels.
    const result = await convertDocument(bytes, {}, documentOptions());
    expect(result).toEqual({ ok: false, error: { code: "CONVERT_FAILED", message: expect.stringContaining("nested more than 256 levels") } });
  });
});

describe("convertDocument: XLSX zip bombs", () => {
  it("refuses a sheet that inflates far past maxUnzippedBytes before inflating anything", async () => {
    const bomb = buildZipBomb({ inflatedBytes: 2 * 1024 * 1024 * 1024 });
    const before = process.memoryUsage().arrayBuffers;
    const result = await convertDocument(bomb, {}, documentOptions());
    // Refused by the sizes its directory declares: nothing was inflated, so nothing was held.
    expect(result).toEqual({ ok: false, error: { code: "FILE_TOO_LARGE", message: "The document unpacks to 2048 MiB, more than the 100 MiB limit." } });
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(32 * 1024 * 1024);
  });

  it("stops inflating an entry at the size it declares when it lies", async () => {
    const bomb = buildZipBomb({ inflatedBytes: 1024 * 1024 * 1024, declaredBytes: 10_000 });
    const before = process.memoryUsage().arrayBuffers;
    const result = await convertDocument(bomb, {}, documentOptions());
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(32 * 1024 * 1024);
    expect(result).toEqual({ ok: false, error: { code: "CONVERT_FAILED", message: expect.stringContaining("inflates to more than the 10000 bytes it declares") } });
  });

  it("refuses an entry within the limit whose compression ratio only a bomb has", async () => {
    const result = await convertDocument(buildZipBomb({ inflatedBytes: 60 * 1024 * 1024 }), {}, documentOptions());
    expect(result).toEqual({ ok: false, error: { code: "CONVERT_FAILED", message: expect.stringContaining("a ratio only a zip bomb has") } });
  });
});

const spreadsheet = buildOds({
  title: "Budget",
  sheets: [
    {
      name: "Plan",
      rows: [
        ["Item", "Share", "Due"],
        ["Rent", { value: "0.5", type: "percentage", text: "50%" }, { value: "2024-03-01", type: "date", text: "01/03/2024" }],
        // No text shown: the typed value stands in.
        ["Food", { value: "0.25", type: "float" }, null],
        { repeat: 3, cells: ["Saving", { repeat: 2, cell: "same" }] },
      ],
    },
    { name: "Notes", rows: [[null], ["a | b"]] },
  ],
});

describe("convertDocument: ODS", () => {
  it("reads repeated rows and cells without expanding the million empty rows at the end", async () => {
    const started = Date.now();
    const document = await converted(spreadsheet);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(document).toMatchObject({ provider: "ods", contentType: ODS, title: "Budget", truncated: false, pages: { total: 2, included: 2 } });
    expect(document.content).toBe(
      [
        "## Plan",
        [
          "| Item | Share | Due |",
          "| --- | --- | --- |",
          "| Rent | 50% | 01/03/2024 |",
          "| Food | 0.25 |  |",
          "| Saving | same | same |",
          "| Saving | same | same |",
          "| Saving | same | same |",
        ].join("\n"),
        "## Notes",
        "| a \\| b |\n| --- |",
      ].join("\n\n"),
    );
  });

  it("cuts a repeated row at maxRows and counts what was left out", async () => {
    const bytes = buildOds({ sheets: [{ name: "S", rows: [["head"], { repeat: 5000, cells: ["x"] }] }] });
    const document = await converted(bytes, { maxRows: 10 });
    expect(document.truncated).toBe(true);
    // The header, the rule under it and nine rows.
    expect(document.content.split("\n").filter((line) => line.startsWith("| ")).length).toBe(11);
    expect(document.content).toContain("_The sheet has 5001 rows; 4991 after row 10 are left out._");
  });

  it("renders no more than the answer can hold, however far a tiny file repeats its cells", async () => {
    // 60 sheets of one cell repeated over 16,384 columns and a million rows: 2 KiB that would render 15 million cells.
    const sheets = Array.from({ length: 60 }, (_, i) => ({ name: `S${i + 1}`, rows: [{ repeat: 1_000_000, cells: [{ repeat: 16_384, cell: "x" }] }] }));
    const bytes = buildOds({ sheets });
    expect(bytes.length).toBeLessThan(4096);
    const started = Date.now();
    const document = await converted(bytes, { maxContentChars: 100_000 });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(document).toMatchObject({ truncated: true, pages: { total: 60, included: 1 } });
    expect(document.content.length).toBe(100_000);
  });

  it("renders at most a quarter million cells across the workbook, whatever maxContentChars allows", async () => {
    const sheets = Array.from({ length: 5 }, (_, i) => ({ name: `S${i + 1}`, rows: [{ repeat: 1_000_000, cells: [{ repeat: 16_384, cell: "x" }] }] }));
    const document = await converted(buildOds({ sheets }), { maxContentChars: 100_000_000 });
    expect(document).toMatchObject({ truncated: true, pages: { total: 5, included: 2 } });
    const cells = document.content.split("\n").filter((line) => line.startsWith("| x")).length * 256;
    expect(cells).toBeGreaterThan(240_000);
    expect(cells).toBeLessThanOrEqual(250_000 + 256);
    expect(document.content).toContain("_Rows after row 976 are left out: the answer has no room for more._");
  });

  it("stops building sheets once the Markdown is past maxContentChars, still counting them", async () => {
    const document = await converted(spreadsheet, { maxContentChars: 30 });
    expect(document).toMatchObject({ truncated: true, pages: { total: 2, included: 1 } });
    expect(document.content).toBe((await converted(spreadsheet)).content.slice(0, 30));
  });

  it("reads a cell whose value type is a name Object.prototype has as a cell without a typed value", async () => {
    const cells = ["constructor", "__proto__", "toString"].map((type) => `<table:table-cell office:value-type="${type}" office:value="5" office:constructor="6"/>`);
    const content = `<office:document-content xmlns:office="o" xmlns:table="t" xmlns:text="x"><office:body><office:spreadsheet><table:table table:name="S"><table:table-row><table:table-cell><text:p>head</text:p></table:table-cell>${cells.join("")}</table:table-row></table:table></office:spreadsheet></office:body></office:document-content>`;
    const bytes = buildZip([
      { name: "mimetype", data: ODS, store: true },
      { name: "content.xml", data: content },
    ]);
    expect((await converted(bytes)).content).toBe("## S\n\n| head |\n| --- |");
  });

  it("reads only the selected sheets", async () => {
    const document = await converted(spreadsheet, { pages: "2" });
    expect(document.content).toBe("## Notes\n\n| a \\| b |\n| --- |");
    expect(document.pages).toEqual({ total: 2, included: 1 });
  });

  it("refuses a selection naming no sheet", async () => {
    const result = await convertDocument(spreadsheet, {}, documentOptions({ pages: "3-4" }));
    expect(result).toEqual({ ok: false, error: { code: "INVALID_INPUT", message: 'The document has 2 sheets; the selection "3-4" names none of them.' } });
  });

  it("leaves out cell comments and keeps spaces and line breaks inside cells", async () => {
    const content = `<office:document-content xmlns:office="o" xmlns:table="t" xmlns:text="x"><office:body><office:spreadsheet><table:table table:name="S"><table:table-row><table:table-cell><office:annotation><text:p>hidden comment</text:p></office:annotation><text:p>two<text:s text:c="2"/>spaces<text:line-break/>next line</text:p></table:table-cell></table:table-row></table:table></office:spreadsheet></office:body></office:document-content>`;
    const bytes = buildZip([
      { name: "mimetype", data: ODS, store: true },
      { name: "content.xml", data: content },
    ]);
    expect((await converted(bytes)).content).toBe("## S\n\n| two  spaces<br>next line |\n| --- |");
  });
});

describe("SheetGrid", () => {
  const grid = new SheetGrid(1000);
  for (let row = 0; row < 1000; row++) grid.addRow(row, [{ column: 0, value: `r${row + 1}`, repeat: 1 }, { column: 1, value: "x", repeat: 3 }]);
  const rows = (markdown: string) => markdown.split("\n").filter((line) => line.startsWith("| r")).length;

  it("renders at most maxCells cells, in whole rows, and says where it stopped", () => {
    const table = grid.toMarkdown({ maxCells: 40, deadlineMs: Date.now() + 10_000 });
    expect(table).toMatchObject({ truncated: true, cells: 40 });
    expect(rows(table.markdown)).toBe(10);
    expect(table.markdown.endsWith("\n\n_Rows after row 10 are left out: the answer has no room for more._")).toBe(true);
  });

  it("stops rendering when the deadline leaves no time, after the first thousand cells", () => {
    const table = grid.toMarkdown({ maxCells: Number.POSITIVE_INFINITY, deadlineMs: Date.now() - 1 });
    expect(table).toMatchObject({ truncated: true, cells: 1000 });
    expect(rows(table.markdown)).toBe(250);
    expect(table.markdown.endsWith("\n\n_Rows after row 250 are left out: the conversion deadline came._")).toBe(true);
  });

  it("renders every row within both limits", () => {
    const table = grid.toMarkdown({ maxCells: 4000, deadlineMs: Date.now() + 10_000 });
    expect(table).toMatchObject({ truncated: false, cells: 4000 });
    expect(rows(table.markdown)).toBe(1000);
  });
});
