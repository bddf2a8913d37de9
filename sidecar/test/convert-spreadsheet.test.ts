import { describe, expect, it } from "vitest";
import { convertDocument } from "../src/convert/convert-document.ts";
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
    const started = Date.now();
    const document = await converted(bytes, { ...limits, deadlineMs: Date.now() + budget });
    expect(Date.now() - started).toBeLessThan(budget + 500);
    expect(document.truncated).toBe(true);
    expect(document.content).toContain("\n| 1 | 2 | 3 |\n");
    expect(document.content).not.toContain("| 59999 | 119998 | 179997 |");
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
    const started = Date.now();
    const result = await convertDocument(bytes, {}, documentOptions());
    expect(Date.now() - started).toBeLessThan(1000);
    expect(result).toEqual({ ok: false, error: { code: "CONVERT_FAILED", message: expect.stringContaining("nested more than 256 levels") } });
  });
});

describe("convertDocument: XLSX zip bombs", () => {
  it("refuses a sheet that inflates far past maxUnzippedBytes before inflating anything", async () => {
    const bomb = buildZipBomb({ inflatedBytes: 2 * 1024 * 1024 * 1024 });
    const before = process.memoryUsage().arrayBuffers;
    const started = Date.now();
    const result = await convertDocument(bomb, {}, documentOptions());
    expect(Date.now() - started).toBeLessThan(500);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(32 * 1024 * 1024);
    expect(result).toEqual({ ok: false, error: { code: "FILE_TOO_LARGE", message: "The document unpacks to 2048 MiB, more than the 100 MiB limit." } });
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
