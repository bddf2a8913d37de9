import { describe, expect, it } from "vitest";
import { convertDocument } from "../src/convert/service/convert-document.ts";
import { buildDocx, buildOds, buildSimplePdf, buildXlsx, documentOptions } from "./support/document-fixtures.ts";
import { buildZip } from "./support/document-zip.ts";

const bytesOf = (text: string) => new TextEncoder().encode(text);
const SUPPORTED = "convert_content converts PDF, DOCX, ODT, XLSX, ODS, PPTX, ODP, EPUB and RTF documents, e-mail messages (EML), HTML, text, Markdown, CSV, JSON, XML and YAML files, and ZIP archives of them.";

async function provider(bytes: Uint8Array, hints: Parameters<typeof convertDocument>[1]) {
  const result = await convertDocument(bytes, hints, documentOptions());
  return result.ok ? result.value.provider : result.error.code;
}

describe("convertDocument: detection", () => {
  it("trusts what the bytes show over the Content-Type and the file name", async () => {
    expect(await provider(buildSimplePdf(), { contentType: "text/html", fileName: "page.html" })).toBe("unpdf");
    expect(await provider(buildDocx(), { contentType: "application/pdf", fileName: "report.pdf" })).toBe("mammoth");
    expect(await provider(buildXlsx({ sheets: [{ name: "S", rows: [["a"]] }] }), { fileName: "data.docx" })).toBe("xlsx");
    expect(await provider(buildOds({ sheets: [{ name: "S", rows: [["a"]] }] }), {})).toBe("ods");
  });

  it("finds the PDF header after junk at the start", async () => {
    expect(await provider(new Uint8Array([...bytesOf("\n\n   "), ...buildSimplePdf()]), {})).toBe("unpdf");
  });

  it("goes by the Content-Type, then the extension, when the bytes show nothing; the converter then says what is wrong", async () => {
    expect(await convertDocument(bytesOf("<html>not a pdf</html>"), { contentType: "application/pdf; charset=binary" }, documentOptions())).toEqual({
      ok: false,
      error: { code: "CONVERT_FAILED", message: expect.stringContaining("not a readable PDF") },
    });
    expect(await convertDocument(bytesOf("plain words"), { fileName: "Budget.XLSX" }, documentOptions())).toEqual({
      ok: false,
      error: { code: "CONVERT_FAILED", message: expect.stringContaining("end-of-directory record is missing") },
    });
    expect(await provider(bytesOf("plain words"), { url: "https://example.com/files/deck.pptx?download=1" })).toBe("CONVERT_FAILED");
  });

  it("lets a text Content-Type win over a document extension: a page served as text/html from …/paper.pdf is that page", async () => {
    const page = bytesOf("<!doctype html><html><head><title>Sign in</title></head><body><h1>Please sign in</h1><p>To download the paper.</p></body></html>");
    expect(await convertDocument(page, { contentType: "text/html; charset=utf-8", url: "https://example.com/paper.pdf" }, documentOptions())).toEqual({
      ok: true,
      value: { provider: "html", title: "Sign in", content: "# Please sign in\n\nTo download the paper.", truncated: false, contentType: "text/html" },
    });
    expect(await provider(bytesOf("just words"), { contentType: "text/plain", fileName: "report.docx" })).toBe("text");
    // A header that says nothing leaves the extension to decide.
    expect(await provider(bytesOf("just words"), { contentType: "application/octet-stream", fileName: "report.docx" })).toBe("CONVERT_FAILED");
  });

  it("reads text formats with fetch_content's handlers, the kind as provider", async () => {
    const cases: [string, Parameters<typeof convertDocument>[1], string, string][] = [
      ["<html><head><title>Page</title></head><body><h1>Hello</h1><p>World</p></body></html>", { contentType: "text/html" }, "html", "text/html"],
      ["# Title\n\nBody", { fileName: "notes.md" }, "markdown", "text/markdown"],
      ["a,b\n1,2", { fileName: "table.csv" }, "csv", "text/csv"],
      ['{"a": 1}', {}, "json", "application/json"],
      ["<feed><title>x</title></feed>", { contentType: "application/xml" }, "xml", "application/xml"],
      ["a: 1", { url: "https://example.com/config.yaml" }, "yaml", "application/yaml"],
      ["just some words", {}, "text", "text/plain"],
    ];
    for (const [text, hints, kind, mime] of cases) {
      const result = await convertDocument(bytesOf(text), hints, documentOptions());
      expect(result.ok && { provider: result.value.provider, contentType: result.value.contentType }).toEqual({ provider: kind, contentType: mime });
    }
  });

  it("renders HTML as fetch_content does, resolving links against the URL when there is one", async () => {
    const html = bytesOf('<html><head><title>Page</title></head><body><main><h1>Hello</h1><p>See <a href="/next">next</a>.</p></main></body></html>');
    expect(await convertDocument(html, { contentType: "text/html", url: "https://example.com/a/" }, documentOptions())).toEqual({
      ok: true,
      value: { provider: "html", title: "Page", content: "# Hello\n\nSee [next](https://example.com/next).", truncated: false, contentType: "text/html" },
    });
    const unaddressed = await convertDocument(html, { contentType: "text/html" }, documentOptions());
    expect(unaddressed.ok && unaddressed.value.content).toBe("# Hello\n\nSee next.");
  });

  it.each([
    ["a PNG image", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), { contentType: "image/png" }, "of type image/png"],
    ["an unlabeled binary", new Uint8Array([0, 1, 2, 3, 0, 255, 254, 0]), {}, "binary data of a format that was not recognised"],
    ["a legacy .doc", new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]), { fileName: "old.doc" }, "a legacy Microsoft Office file"],
    ["a legacy Word document", compoundFile("WordDocument"), { fileName: "old.doc" }, "a legacy Word document (.doc); save it as DOCX"],
    ["a legacy Excel workbook", compoundFile("Workbook"), {}, "a legacy Excel workbook (.xls); save it as XLSX"],
    ["a legacy PowerPoint file", compoundFile("PowerPoint Document"), {}, "a legacy PowerPoint presentation (.ppt); save it as PPTX"],
    ["a password-protected Office document", compoundFile("EncryptedPackage"), { fileName: "secret.docx" }, "a password-protected Office document"],
    ["an OpenDocument drawing", buildZip([{ name: "mimetype", data: "application/vnd.oasis.opendocument.graphics", store: true }, { name: "content.xml", data: "<x/>" }]), {}, "an OpenDocument file of a kind that is not read"],
    ["an audio file by its name", new Uint8Array([1, 2, 3, 0]), { fileName: "song.mp3" }, "a .mp3 file"],
  ])("refuses %s, naming what it is and what is supported", async (_, bytes, hints, what) => {
    const result = await convertDocument(bytes, hints, documentOptions());
    expect(result.ok === false && result.error.code).toBe("CONVERT_FAILED");
    expect(result.ok === false && result.error.message.startsWith(`This file is ${what}`)).toBe(true);
    expect(result.ok === false && result.error.message.endsWith(SUPPORTED)).toBe(true);
  });

  it("reads a ZIP archive of files as each file's Markdown under a heading naming it, in the archive's order", async () => {
    const archive = buildZip([
      { name: "notes/readme.md", data: "# Notes\n\nRead *me* first." },
      { name: "notes/", data: "" },
      { name: "__MACOSX/notes/._readme.md", data: "resource fork" },
      { name: "data.csv", data: "city,tides\nBrest,2\n" },
      { name: "report.docx", data: buildDocx({ paragraphs: ["The report's only paragraph."] }) },
      { name: "inner.zip", data: buildZip([{ name: "deep.txt", data: "never read" }]) },
      { name: "photo.bin", data: new Uint8Array([0, 1, 2, 3, 0, 255]) },
      { name: ".hidden", data: "dot file" },
    ]);
    const result = await convertDocument(archive, { fileName: "bundle.zip" }, documentOptions());
    expect(result.ok && result.value).toMatchObject({ provider: "zip", truncated: false });
    const content = result.ok ? result.value.content : "";
    expect(content.split("\n").filter((line) => line.startsWith("## File: "))).toEqual(["## File: `notes/readme.md`", "## File: `data.csv`", "## File: `report.docx`", "## File: `inner.zip`", "## File: `photo.bin`"]);
    expect(content).toContain("## File: `notes/readme.md`\n\n# Notes\n\nRead *me* first.");
    expect(content).toContain("| city | tides |");
    expect(content).toContain("The report's only paragraph.");
    expect(content).toContain("## File: `inner.zip`\n\n(not converted: It is an archive inside the archive, which is not opened.)");
    expect(content).toMatch(/## File: `photo\.bin`\n\n\(not converted: This file is a \.bin file/);
    expect(content).not.toContain("never read");
    expect(content).not.toContain("resource fork");
    expect(content).not.toContain("dot file");
  });

  it("says which file of an archive is damaged or empty and converts the others", async () => {
    const archive = buildZip([
      { name: "first.txt", data: "before the damage" },
      { name: "broken.txt", data: "DAMAGED-BYTES-HERE", store: true },
      { name: "empty.txt", data: "" },
      { name: "last.txt", data: "after the damage" },
    ]);
    // A stored entry's bytes stand as they are: one changed byte fails its checksum.
    const at = Buffer.from(archive).indexOf("DAMAGED-BYTES-HERE");
    archive[at] = "X".charCodeAt(0);
    const result = await convertDocument(archive, { fileName: "bundle.zip" }, documentOptions());
    const content = result.ok ? result.value.content : "";
    expect(content).toContain("## File: `first.txt`\n\nbefore the damage");
    expect(content).toMatch(/## File: `broken\.txt`\n\n\(not converted: [^)]*broken\.txt fails its checksum/);
    expect(content).toContain("## File: `empty.txt`\n\n(an empty file)");
    expect(content).toContain("## File: `last.txt`\n\nafter the damage");
  });

  it("writes entry names as inline code on one line, so a name cannot forge a heading or a file's section", async () => {
    const forged = "notes.txt\n\n# Quarterly results\n\nRevenue doubled.\n\n## File: real.txt";
    const archive = buildZip([
      { name: forged, data: "the notes" },
      { name: "broken.txt\n\n# Forged [link](https://evil.test/)", data: "DAMAGED-BYTES-HERE", store: true },
      { name: "a``b.txt", data: "ticks" },
      { name: "real.txt", data: "the real file" },
    ]);
    archive[Buffer.from(archive).indexOf("DAMAGED-BYTES-HERE")] = "X".charCodeAt(0);
    const result = await convertDocument(archive, { fileName: "bundle.zip" }, documentOptions());
    const content = result.ok ? result.value.content : "";
    expect(content.split("\n").filter((line) => /^\s{0,3}#/.test(line))).toEqual([
      "## File: `notes.txt\\n\\n# Quarterly results\\n\\nRevenue doubled.\\n\\n## File: real.txt`",
      "## File: `broken.txt\\n\\n# Forged [link](https://evil.test/)`",
      "## File: ```a``b.txt```",
      "## File: `real.txt`",
    ]);
    // A reason naming the entry stays one line of plain text.
    expect(content).toContain("(not converted: The document's ZIP container is damaged: the entry broken.txt # Forged \\[link\\](https://evil.test/) fails its checksum.)");
  });

  it("converts at most 100 files of an archive and says how many more it holds", async () => {
    const files = Array.from({ length: 105 }, (_, i) => ({ name: `n${String(i).padStart(3, "0")}.txt`, data: `note ${i}` }));
    const result = await convertDocument(buildZip(files), {}, documentOptions());
    const content = result.ok ? result.value.content : "";
    expect(result.ok && result.value.truncated).toBe(true);
    expect(content.split("\n").filter((line) => line.startsWith("## File: "))).toHaveLength(100);
    expect(content).toContain("## File: `n099.txt`\n\nnote 99");
    expect(content).not.toContain("n100.txt");
    expect(content.endsWith("(5 more files in the archive are not converted.)")).toBe(true);
  });

  it("keeps a ZIP archive within the limits: its declared size, and maxContentChars", async () => {
    const files = Array.from({ length: 30 }, (_, i) => ({ name: `part-${i}.txt`, data: `Part ${i}. ${"words ".repeat(200)}` }));
    const cut = await convertDocument(buildZip(files), {}, { ...documentOptions(), maxContentChars: 3_000 });
    expect(cut.ok && cut.value.truncated).toBe(true);
    expect(cut.ok && cut.value.content.length).toBeLessThanOrEqual(3_000);
    const big = await convertDocument(buildZip(files), {}, { ...documentOptions(), maxUnzippedBytes: 10_000 });
    expect(big.ok === false && big.error.code).toBe("FILE_TOO_LARGE");
  });

  it("unpacks the whole archive within maxUnzippedBytes, its documents' own unpacking counted: past it, reading stops and says so", async () => {
    // Each DOCX is small in the archive but unpacks to ~35 KB (a paragraph of filler deflates to little): two fit in 100 KB, three do not.
    const report = (n: number) => buildDocx({ paragraphs: [`Report ${n}. ${"filler ".repeat(4_000)}`] });
    const archive = buildZip([
      { name: "a.docx", data: report(1) },
      { name: "b.docx", data: report(2) },
      { name: "c.docx", data: report(3) },
      { name: "d.txt", data: "never read" },
    ]);
    const result = await convertDocument(archive, { fileName: "reports.zip" }, documentOptions({ maxUnzippedBytes: 100_000 }));
    expect(result.ok && result.value).toMatchObject({ provider: "zip", truncated: true });
    const content = result.ok ? result.value.content : "";
    expect(content).toContain("Report 1.");
    expect(content).toContain("Report 2.");
    expect(content).not.toContain("Report 3.");
    expect(content).not.toContain("never read");
    expect(content).toMatch(/## File: `c\.docx`\n\n\(not converted: The file unpacks to \d+ KiB, more than the \d+ KiB left of the 98 KiB the whole archive may unpack to\.\)/);
    expect(content.endsWith("(Reading stopped there: the archive unpacks to more than 98 KiB. 1 more file in the archive is not converted.)")).toBe(true);
  });

  it("reads an .htm attachment sent as octet-stream as HTML", async () => {
    const html = bytesOf("<html><body><h1>Saved page</h1><p>Kept as a file.</p></body></html>");
    const result = await convertDocument(html, { fileName: "saved.htm", contentType: "application/octet-stream" }, documentOptions());
    expect(result.ok && result.value).toMatchObject({ provider: "html", content: "# Saved page\n\nKept as a file." });
  });

  it("refuses an empty file", async () => {
    expect(await convertDocument(new Uint8Array(0), {}, documentOptions())).toEqual({
      ok: false,
      error: { code: "CONVERT_FAILED", message: "The file is empty; there is nothing to convert." },
    });
  });
});

/** A compound file (OLE2) whose directory names one stream. */
function compoundFile(stream: string): Uint8Array {
  const header = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
  return new Uint8Array([...header, ...new Uint8Array(504), ...Buffer.from(`Root Entry\0${stream}\0`, "utf16le")]);
}

describe("convertDocument: options", () => {
  it("checks the page selection before anything else, whatever the format", async () => {
    expect(await convertDocument(bytesOf("plain text"), {}, documentOptions({ pages: "2-1" }))).toEqual({
      ok: false,
      error: { code: "INVALID_INPUT", message: 'The page selection "2-1" is not valid: the range 2-1 runs backwards.' },
    });
  });

  it("ignores a valid page selection for formats without pages", async () => {
    const result = await convertDocument(bytesOf("plain text"), {}, documentOptions({ pages: "1" }));
    expect(result.ok && result.value.content).toBe("plain text");
  });

  it("cuts the Markdown to maxContentChars and says so", async () => {
    expect(await convertDocument(bytesOf("0123456789"), {}, documentOptions({ maxContentChars: 4 }))).toEqual({
      ok: true,
      value: { provider: "text", content: "0123", truncated: true, contentType: "text/plain" },
    });
  });

  it("fails with CONVERT_TIMEOUT when the deadline has already passed", async () => {
    const result = await convertDocument(bytesOf("plain text"), {}, documentOptions({ deadlineMs: Date.now() - 1 }));
    expect(result.ok === false && result.error.code).toBe("CONVERT_TIMEOUT");
  });
});
