import { describe, expect, it } from "vitest";
import { convertDocument } from "../src/convert/service/convert-document.ts";
import { buildDocx, documentOptions, wordParagraph, wordRun } from "./support/document-fixtures.ts";
import { buildZip, hideSecondDirectory, unicodePathExtra } from "./support/document-zip.ts";

const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

describe("convertDocument: DOCX", () => {
  it("keeps headings, links, nested and numbered lists and tables, with the document's title", async () => {
    const result = await convertDocument(buildDocx({ title: "Q3 Report" }), {}, documentOptions());
    expect(result).toEqual({
      ok: true,
      value: {
        provider: "mammoth",
        title: "Q3 Report",
        truncated: false,
        contentType: DOCX,
        content: [
          "# Quarterly Report",
          "This report summarises the quarter. See [the results page](https://example.com/results).",
          "- Revenue grew\n  - Mostly in logistics\n- Costs fell",
          "1. Plan the budget\n2. Hire two engineers",
          "## Figures",
          "| Region | Sales |\n| --- | --- |\n| North | 120 |\n| South | 95 |",
        ].join("\n\n"),
      },
    });
  });

  it("renders the whole document, however little it looks like main content", async () => {
    const paragraphs = Array.from({ length: 30 }, (_, i) => `Short line ${i + 1}`);
    const result = await convertDocument(buildDocx({ paragraphs }), {}, documentOptions());
    expect(result.ok && result.value.content.endsWith(paragraphs.join("\n\n"))).toBe(true);
  });

  it("drops noncharacters from the text, so none is read as emphasis", async () => {
    const result = await convertDocument(buildDocx({ paragraphs: ["Say \ufdd0this\ufdd1 and \ufdd2that\ufdd3 \ufdefnow"] }), {}, documentOptions());
    expect(result.ok && result.value.content.endsWith("\n\nSay this and that now")).toBe(true);
  });

  it("keeps the text of links to the document's own bookmarks, without the link", async () => {
    const result = await convertDocument(buildDocx({ bookmarkLink: "See the appendix" }), {}, documentOptions());
    expect(result.ok && result.value.content.endsWith("\n\nSee the appendix")).toBe(true);
  });

  it("keeps a heading that ends the document: nothing was left out after it", async () => {
    const result = await convertDocument(buildDocx({ xml: [wordParagraph(wordRun("Appendix"), '<w:pStyle w:val="Heading2"/>')] }), {}, documentOptions());
    expect(result.ok && result.value.content.endsWith("\n\n## Appendix")).toBe(true);
  });

  it("escapes text that would read as Markdown", async () => {
    const result = await convertDocument(buildDocx({ paragraphs: ["*Not emphasis* and # not a heading"] }), {}, documentOptions());
    expect(result.ok && result.value.content.endsWith("\n\n\\*Not emphasis\\* and # not a heading")).toBe(true);
  });

  it("cuts the Markdown to maxContentChars", async () => {
    const result = await convertDocument(buildDocx(), {}, documentOptions({ maxContentChars: 20 }));
    expect(result.ok && result.value).toMatchObject({ content: "# Quarterly Report\n\n", truncated: true });
  });

  it("fails with CONVERT_FAILED when word/document.xml is not XML", async () => {
    const broken = buildZip([{ name: "word/document.xml", data: "<w:document><w:body><w:p>" }]);
    const result = await convertDocument(broken, {}, documentOptions());
    expect(result).toEqual({ ok: false, error: { code: "CONVERT_FAILED", message: expect.stringContaining("The Word document could not be read") } });
  });

  it("checks every entry before mammoth sees the archive: an entry that lies about its size fails", async () => {
    const bomb = buildZip([
      { name: "word/document.xml", data: "<w:document/>" },
      { name: "word/media/filler.bin", data: Buffer.alloc(5 * 1024 * 1024), declaredSize: 1024 },
    ]);
    const result = await convertDocument(bomb, {}, documentOptions());
    expect(result).toEqual({ ok: false, error: { code: "CONVERT_FAILED", message: expect.stringContaining("inflates to more than the 1024 bytes it declares") } });
  });

  it("refuses a document hiding a second directory, which mammoth's unzipper would read past the size limit", async () => {
    const hiddenParagraphs = Array.from({ length: 2000 }, (_, i) => `hidden paragraph ${i} `.repeat(20));
    const bytes = hideSecondDirectory(buildDocx({ heading: "Harmless", paragraphs: ["short"] }), buildDocx({ heading: "Hidden", paragraphs: hiddenParagraphs }));
    const result = await convertDocument(bytes, {}, documentOptions({ maxUnzippedBytes: 64 * 1024 }));
    expect(result).toEqual({ ok: false, error: { code: "CONVERT_FAILED", message: expect.stringContaining("bytes between its directory and its end record") } });
  });

  it("hands mammoth exactly the entries it checked: an entry another unzipper would rename is not read as the document", async () => {
    const hidden = '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Hidden text</w:t></w:r></w:p></w:body></w:document>';
    // JSZip takes a Unicode Path extra field as the name of an entry not flagged UTF-8.
    const decoy = { name: "word/decoy.xml", data: hidden, flags: 0, extra: unicodePathExtra("word/decoy.xml", "word/document.xml") };
    const result = await convertDocument(buildDocx({ heading: "Shown heading", entries: [decoy] }), {}, documentOptions());
    expect(result.ok && result.value.content.startsWith("# Shown heading\n\n")).toBe(true);
    expect(result.ok && result.value.content).not.toContain("Hidden text");
  });

  it("does not start mammoth, which cannot be stopped, on a document it could not finish in the time left", async () => {
    const paragraphs = Array.from({ length: 20_000 }, (_, i) => `Paragraph ${i} with some words to read in it.`);
    const bytes = buildDocx({ paragraphs });
    const result = await convertDocument(bytes, {}, documentOptions({ deadlineMs: Date.now() + 300 }));
    // Only the check made before mammoth is called answers so: mammoth was not started.
    expect(result).toEqual({ ok: false, error: { code: "CONVERT_TIMEOUT", message: "The Word document cannot be converted in the time left before the conversion deadline; raise timeoutMs." } });
  });

  it("ignores a page selection: a Word document has no pages to choose and is answered whole", async () => {
    const whole = await convertDocument(buildDocx(), {}, documentOptions());
    const selected = await convertDocument(buildDocx(), {}, documentOptions({ pages: "2-3" }));
    expect(selected).toEqual(whole);
    expect(selected.ok && "pages" in selected.value).toBe(false);
  });

  it("fails with FILE_TOO_LARGE when the parts unpack past maxUnzippedBytes", async () => {
    const result = await convertDocument(buildDocx(), {}, documentOptions({ maxUnzippedBytes: 1000 }));
    expect(result.ok === false && result.error.code).toBe("FILE_TOO_LARGE");
  });

  it("fails with CONVERT_TIMEOUT when the deadline has passed", async () => {
    const result = await convertDocument(buildDocx(), {}, documentOptions({ deadlineMs: Date.now() - 1 }));
    expect(result.ok === false && result.error.code).toBe("CONVERT_TIMEOUT");
  });
});
