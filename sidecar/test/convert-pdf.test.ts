import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { convertDocument } from "../src/convert/service/convert-document.ts";
import {
  buildBrokenXrefPdf,
  buildEncryptedPdf,
  buildImageOnlyPdf,
  buildNestedPdf,
  buildPdf,
  buildSimplePdf,
  documentOptions,
} from "./support/document-fixtures.ts";

const convert = (bytes: Uint8Array, overrides: Parameters<typeof documentOptions>[0] = {}) => convertDocument(bytes, {}, documentOptions(overrides));

async function converted(bytes: Uint8Array, overrides: Parameters<typeof documentOptions>[0] = {}) {
  const result = await convert(bytes, overrides);
  if (!result.ok) throw new Error(`conversion failed: ${result.error.message}`);
  return result.value;
}

const LEFT = ["Left column opens the article with its first paragraph, which runs over several lines.", "Left column closes with a second paragraph."];
const RIGHT = ["Right column continues the article after the left one ends.", "Right column has the last word."];

let report: Uint8Array;
let longPdf: Uint8Array;

beforeAll(async () => {
  report = await buildPdf({
    title: "Annual Report",
    pages: [
      { heading: "Annual Report", subheading: "Summary", paragraphs: ["The first paragraph of body text is long enough to wrap over two lines of the page.", "A second paragraph follows."] },
      { heading: "Two Columns", columns: [LEFT, RIGHT] },
      { subheading: "Drawn Backwards", paragraphs: ["This paragraph is at the top.", "This one is at the bottom."], drawBottomFirst: true },
      {
        columns: [LEFT, RIGHT],
        closing: ["A closing paragraph runs across the whole width of the page, below both columns."],
        table: [
          ["Name", "Score"],
          ["Alice", "10"],
          ["Bob", "7"],
        ],
      },
    ],
  });
  longPdf = await buildPdf({ pages: Array.from({ length: 2000 }, (_, i) => ({ paragraphs: [`Page ${i + 1} of a very long document.`] })) });
});

describe("convertDocument: PDF text", () => {
  it("converts pages in order with a page marker before each, and the metadata title", async () => {
    const document = await converted(report);
    expect(document).toMatchObject({ provider: "unpdf", contentType: "application/pdf", title: "Annual Report", truncated: false, pages: { total: 4, included: 4 } });
    const markers = [...document.content.matchAll(/^<!-- page (\d+) -->$/gm)].map((match) => Number(match[1]));
    expect(markers).toEqual([1, 2, 3, 4]);
    expect(document.content.startsWith("<!-- page 1 -->\n\n# Annual Report\n\n## Summary\n\n")).toBe(true);
  });

  it("ranks headings by font size among the pages read: the largest is #, the next ##", async () => {
    const { content } = await converted(report);
    expect(content).toContain("\n# Two Columns\n");
    expect(content).toContain("\n## Drawn Backwards\n");
    expect(content).not.toMatch(/^#+ .*paragraph/im);
    expect((await converted(report, { pages: "3" })).content).toContain("\n# Drawn Backwards\n");
  });

  it("joins the lines of a paragraph and separates paragraphs by their vertical gaps", async () => {
    const { content } = await converted(report);
    expect(content).toContain("\n\nThe first paragraph of body text is long enough to wrap over two lines of the page.\n\nA second paragraph follows.\n\n");
  });

  it("reads two columns one after the other, under the heading that spans them", async () => {
    const { content } = await converted(report, { pages: "2" });
    expect(content).toBe(["<!-- page 2 -->", "# Two Columns", ...LEFT, ...RIGHT].join("\n\n"));
  });

  it("reads columns before what spans the page below them, and short cells in columns as a table", async () => {
    const { content } = await converted(report, { pages: "4" });
    expect(content).toBe(
      ["<!-- page 4 -->", ...LEFT, ...RIGHT, "A closing paragraph runs across the whole width of the page, below both columns.", "| Name | Score |\n| --- | --- |\n| Alice | 10 |\n| Bob | 7 |"].join("\n\n"),
    );
  });

  it("reads text top to bottom whatever order it was drawn in", async () => {
    const { content } = await converted(report, { pages: "1-3" });
    expect(content.slice(content.indexOf("<!-- page 3 -->"))).toBe("<!-- page 3 -->\n\n## Drawn Backwards\n\nThis paragraph is at the top.\n\nThis one is at the bottom.");
  });

  it("escapes text that would read as Markdown", async () => {
    const { content } = await converted(await buildPdf({ pages: [{ paragraphs: ["# not a heading *nor* emphasis", "1. not a list"] }] }));
    expect(content).toBe("<!-- page 1 -->\n\n\\# not a heading \\*nor\\* emphasis\n\n1\\. not a list");
  });
});

describe("convertDocument: PDF page selection and limits", () => {
  it("reads only the selected pages, in document order", async () => {
    const document = await converted(report, { pages: "3,1" });
    expect([...document.content.matchAll(/<!-- page (\d+) -->/g)].map((match) => match[1])).toEqual(["1", "3"]);
    expect(document.pages).toEqual({ total: 4, included: 2 });
    expect(document.truncated).toBe(false);
  });

  it("ignores selected pages past the end", async () => {
    expect((await converted(report, { pages: "3-99" })).pages).toEqual({ total: 4, included: 2 });
  });

  it("refuses a selection with no page in the document, saying how many there are", async () => {
    expect(await convert(report, { pages: "7-9" })).toEqual({
      ok: false,
      error: { code: "INVALID_INPUT", message: 'The document has 4 pages; the selection "7-9" names none of them.' },
    });
  });

  it.each(["0", "3-1", "one", "1-", "1,,2", ""])("refuses the selection %j", async (pages) => {
    const result = await convert(report, { pages });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe("INVALID_INPUT");
  });

  it("reads at most maxPages pages of a 2,000-page PDF and says it is truncated", async () => {
    const started = Date.now();
    const document = await converted(longPdf, { maxPages: 5 });
    expect(document.pages).toEqual({ total: 2000, included: 5 });
    expect(document.truncated).toBe(true);
    expect(document.content).toContain("Page 5 of a very long document.");
    expect(document.content).not.toContain("Page 6 ");
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("stops at the deadline with the pages it reached, truncated, rather than failing", async () => {
    const started = Date.now();
    const document = await converted(longPdf, { maxPages: 5000, deadlineMs: Date.now() + 400 });
    const elapsed = Date.now() - started;
    expect(document.truncated).toBe(true);
    expect(document.pages?.total).toBe(2000);
    expect(document.pages?.included).toBeGreaterThan(0);
    expect(document.pages?.included).toBeLessThan(2000);
    expect(elapsed).toBeLessThan(2000);
  });

  it.each([300, 800])("stops a margin before a deadline %i ms away, so the partial answer is ready by then", async (budget) => {
    const deadlineMs = Date.now() + budget;
    const document = await converted(longPdf, { maxPages: 5000, deadlineMs });
    expect(Date.now()).toBeLessThan(deadlineMs);
    expect(document.truncated).toBe(true);
    expect(document.pages?.included).toBeGreaterThan(0);
  });

  it("fails with CONVERT_TIMEOUT when the deadline leaves no time to read anything", async () => {
    const result = await convert(report, { deadlineMs: Date.now() - 1 });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe("CONVERT_TIMEOUT");
  });

  it("stops reading pages once maxContentChars is reached and cuts the Markdown there", async () => {
    const document = await converted(longPdf, { maxContentChars: 300 });
    expect(document.content.length).toBe(300);
    expect(document.truncated).toBe(true);
    expect(document.pages?.included).toBeLessThan(20);
  });
});

describe("convertDocument: PDFs that cannot be converted", () => {
  afterEach(() => vi.restoreAllMocks());

  it("says a scanned PDF has no text layer", async () => {
    const result = await convert(await buildImageOnlyPdf());
    expect(result).toEqual({ ok: false, error: { code: "CONVERT_FAILED", message: expect.stringMatching(/no text layer.*OCR/) } });
  });

  it("says a password-protected PDF is encrypted", async () => {
    expect(await convert(buildEncryptedPdf())).toEqual({
      ok: false,
      error: { code: "CONVERT_FAILED", message: "The PDF is encrypted and needs a password to open; it cannot be converted." },
    });
  });

  it("recovers a PDF whose cross-reference offsets are wrong", async () => {
    expect((await converted(buildBrokenXrefPdf("Recovered text"))).content).toBe("<!-- page 1 -->\n\nRecovered text");
  });

  it("fails cleanly on a PDF cut short before its objects", async () => {
    const result = await convert((await buildPdf({ pages: 3 })).subarray(0, 200));
    expect(result).toEqual({ ok: false, error: { code: "CONVERT_FAILED", message: expect.stringContaining("not a readable PDF") } });
  });

  it("fails cleanly on a PDF cut in half (its catalog and cross-reference, written last, gone)", async () => {
    const bytes = await buildPdf({ pages: 3 });
    const result = await convert(bytes.subarray(0, bytes.length / 2));
    expect(result).toEqual({ ok: false, error: { code: "CONVERT_FAILED", message: expect.stringContaining("not a readable PDF") } });
  });

  it("fails cleanly on bytes that only start like a PDF", async () => {
    const result = await convert(new TextEncoder().encode("%PDF-1.7\nnothing else of a PDF here\n"));
    expect(result).toEqual({ ok: false, error: { code: "CONVERT_FAILED", message: expect.stringContaining("not a readable PDF") } });
  });

  it("fails fast on arrays nested 100,000 deep", async () => {
    const started = Date.now();
    const result = await convert(buildNestedPdf(100_000));
    expect(Date.now() - started).toBeLessThan(3000);
    expect(result).toEqual({ ok: false, error: { code: "CONVERT_FAILED", message: expect.stringContaining("could not be read") } });
  });

  it("loads nothing over the network (fonts, CMaps) and leaves the caller's bytes intact", async () => {
    const fetch = vi.spyOn(globalThis, "fetch");
    const bytes = buildSimplePdf("Standard font text");
    const length = bytes.length;
    expect((await converted(bytes)).content).toBe("<!-- page 1 -->\n\nStandard font text");
    expect(fetch).not.toHaveBeenCalled();
    expect(bytes.length).toBe(length);
  });
});
