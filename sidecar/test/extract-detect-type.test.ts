import { describe, expect, it } from "vitest";
import { detectContentType } from "../src/extract/detect-type.ts";
import { buildDocx, buildEpub, buildOds, buildPptx, buildXlsx, greyPng } from "./support/document-fixtures.ts";

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const bytesOf = (...parts: (string | number[])[]): Uint8Array =>
  new Uint8Array(parts.flatMap((part) => (typeof part === "string" ? Array.from(part, (ch) => ch.charCodeAt(0)) : part)));

const CONVERT_HINT = "use convert_content to convert it to Markdown.";
const BINARY_TAIL = ": the content is binary and not readable as text.";

describe("detectContentType: Content-Type header", () => {
  it.each([
    ["text/html; charset=utf-8", "html", "text/html"],
    ["TEXT/HTML", "html", "text/html"],
    ["application/xhtml+xml", "html", "application/xhtml+xml"],
    ["text/markdown; charset=UTF-8", "markdown", "text/markdown"],
    ["text/x-markdown", "markdown", "text/x-markdown"],
    ["application/json", "json", "application/json"],
    ["application/ld+json", "json", "application/ld+json"],
    ["application/vnd.api+json", "json", "application/vnd.api+json"],
    ["application/manifest+json", "json", "application/manifest+json"],
    ["text/csv", "csv", "text/csv"],
    ["text/tab-separated-values", "tsv", "text/tab-separated-values"],
    ["text/xml", "xml", "text/xml"],
    ["application/xml", "xml", "application/xml"],
    ["application/rss+xml", "xml", "application/rss+xml"],
    ["application/atom+xml", "xml", "application/atom+xml"],
    ["image/svg+xml", "xml", "image/svg+xml"],
    ["application/yaml", "yaml", "application/yaml"],
    ["text/yaml", "yaml", "text/yaml"],
    ["application/x-yaml", "yaml", "application/x-yaml"],
    ["text/plain", "text", "text/plain"],
    ["text/x-unknown-thing", "text", "text/x-unknown-thing"],
    ["application/x-ndjson", "text", "application/x-ndjson"],
  ])("%s → %s", async (contentType, kind, mime) => {
    expect(await detectContentType({ contentType, url: "https://example.test/page", bytes: utf8("x") })).toEqual({ ok: true, kind, mime });
  });

  it.each([
    ["application/javascript", "javascript"],
    ["text/javascript", "javascript"],
    ["application/typescript", "typescript"],
    ["text/x-python", "python"],
    ["text/css", "css"],
    ["application/x-sh", "bash"],
    ["application/sql", "sql"],
    ["application/toml", "toml"],
  ])("%s is code in %s", async (contentType, language) => {
    expect(await detectContentType({ contentType, url: "https://example.test/file", bytes: utf8("x") })).toEqual({
      ok: true,
      kind: "code",
      mime: contentType,
      language,
    });
  });

  it("wins over the URL extension", async () => {
    expect(await detectContentType({ contentType: "text/html", url: "https://example.test/readme.md", bytes: utf8("<p>x") })).toEqual({
      ok: true,
      kind: "html",
      mime: "text/html",
    });
  });

  it.each([
    ["https://raw.example.test/o/r/README.md", { ok: true, kind: "markdown", mime: "text/markdown" }],
    ["https://raw.example.test/o/r/data.csv", { ok: true, kind: "csv", mime: "text/csv" }],
    ["https://raw.example.test/o/r/package.json", { ok: true, kind: "json", mime: "application/json" }],
    ["https://raw.example.test/o/r/ci.yaml", { ok: true, kind: "yaml", mime: "application/yaml" }],
    ["https://raw.example.test/o/r/main.py", { ok: true, kind: "code", mime: "text/plain", language: "python" }],
  ])("generic text/plain defers to the more specific extension of %s", async (url, expected) => {
    expect(await detectContentType({ contentType: "text/plain; charset=utf-8", url, bytes: utf8("x") })).toEqual(expected);
  });

  it("text/plain does not defer to .html: a raw-file host means the source", async () => {
    expect(await detectContentType({ contentType: "text/plain", url: "https://raw.example.test/o/r/index.html", bytes: utf8("<p>x") })).toEqual({
      ok: true,
      kind: "text",
      mime: "text/plain",
    });
  });

  it("repeated headers joined with \", \" count by the first", async () => {
    expect(await detectContentType({ contentType: "application/json, text/html", url: "https://example.test/x", bytes: utf8("{}") })).toEqual({
      ok: true,
      kind: "json",
      mime: "application/json",
    });
  });

  it("text/plain stays text for a .txt or extensionless URL", async () => {
    expect(await detectContentType({ contentType: "text/plain", url: "https://example.test/notes.txt", bytes: utf8("x") })).toEqual({
      ok: true,
      kind: "text",
      mime: "text/plain",
    });
    expect(await detectContentType({ contentType: "text/plain", url: "https://example.test/notes", bytes: utf8("{}") })).toEqual({
      ok: true,
      kind: "text",
      mime: "text/plain",
    });
  });

  it("a non-text/* generic type (ndjson) does not defer to a .json extension", async () => {
    expect(await detectContentType({ contentType: "application/x-ndjson", url: "https://example.test/a.json", bytes: utf8("{}\n{}") })).toEqual({
      ok: true,
      kind: "text",
      mime: "application/x-ndjson",
    });
  });

  it.each(["application/octet-stream", "binary/octet-stream", "", "application/x-something-else"])(
    "ignores the uninformative header %j and uses the extension",
    async (contentType) => {
      expect(await detectContentType({ contentType, url: "https://example.test/data.tsv", bytes: utf8("a\tb") })).toEqual({
        ok: true,
        kind: "tsv",
        mime: "text/tab-separated-values",
      });
    },
  );
});

describe("detectContentType: URL path", () => {
  it.each([
    ["https://example.test/a/index.html?x=1", { kind: "html", mime: "text/html" }],
    ["https://example.test/a/doc.XHTML", { kind: "html", mime: "application/xhtml+xml" }],
    ["https://example.test/notes.markdown", { kind: "markdown", mime: "text/markdown" }],
    ["https://example.test/graph.jsonld", { kind: "json", mime: "application/ld+json" }],
    ["https://example.test/feed.rss", { kind: "xml", mime: "application/rss+xml" }],
    ["https://example.test/feed.atom", { kind: "xml", mime: "application/atom+xml" }],
    ["https://example.test/sitemap.xml", { kind: "xml", mime: "application/xml" }],
    ["https://example.test/conf.yml", { kind: "yaml", mime: "application/yaml" }],
    ["https://example.test/server.log", { kind: "text", mime: "text/plain" }],
    ["https://example.test/src/app.tsx", { kind: "code", mime: "text/plain", language: "tsx" }],
    ["https://example.test/src/types.d.ts", { kind: "code", mime: "text/plain", language: "typescript" }],
    ["https://example.test/lib/index.mjs", { kind: "code", mime: "text/javascript", language: "javascript" }],
    ["https://example.test/main.go", { kind: "code", mime: "text/plain", language: "go" }],
    ["https://example.test/lib.rs", { kind: "code", mime: "text/plain", language: "rust" }],
    ["https://example.test/App.kt", { kind: "code", mime: "text/plain", language: "kotlin" }],
    ["https://example.test/x.hpp", { kind: "code", mime: "text/plain", language: "cpp" }],
    ["https://example.test/install.sh", { kind: "code", mime: "text/plain", language: "bash" }],
    ["https://example.test/Cargo.toml", { kind: "code", mime: "text/plain", language: "toml" }],
    ["https://example.test/site.scss", { kind: "code", mime: "text/plain", language: "scss" }],
    ["https://example.test/App.vue", { kind: "code", mime: "text/plain", language: "vue" }],
    ["https://example.test/repo/Dockerfile", { kind: "code", mime: "text/plain", language: "dockerfile" }],
    ["https://example.test/repo/Dockerfile.dev", { kind: "code", mime: "text/plain", language: "dockerfile" }],
    ["https://example.test/repo/Makefile", { kind: "code", mime: "text/plain", language: "makefile" }],
    ["https://example.test/repo/CMakeLists.txt", { kind: "code", mime: "text/plain", language: "cmake" }],
    ["https://example.test/my%20file.py", { kind: "code", mime: "text/plain", language: "python" }],
  ])("%s", async (url, expected) => {
    expect(await detectContentType({ url, bytes: utf8("plain text") })).toEqual({ ok: true, ...expected });
  });

  it("refuses a text extension whose bytes are binary: by the format's signature (an MPEG-TS video saved as .ts), else as unrecognised", async () => {
    const video = new Uint8Array(400).map((_, i) => (i % 188 === 0 ? 0x47 : i % 7));
    expect(await detectContentType({ url: "https://example.test/clip.ts", bytes: video })).toEqual({ ok: false, message: `This is a video (video/mp2t)${BINARY_TAIL}` });
    const unknown = new Uint8Array(400).map((_, i) => i % 7);
    expect(await detectContentType({ url: "https://example.test/clip.ts", bytes: unknown })).toEqual({
      ok: false,
      message: `This is binary data of an unrecognised format${BINARY_TAIL}`,
    });
  });
});

describe("detectContentType: sniffing unlabeled bytes", () => {
  const sniff = (bytes: Uint8Array) => detectContentType({ url: "https://example.test/", bytes });

  it.each([
    ["  <!DOCTYPE html><html><p>x", "html", "text/html"],
    ["<html lang=en>", "html", "text/html"],
    ["<!-- saved from url=(0014)about:internet -->\n<html>", "html", "text/html"],
    ['<?xml version="1.0"?>\n<!DOCTYPE html><html xmlns="http://www.w3.org/1999/xhtml">', "html", "application/xhtml+xml"],
    ['<?xml version="1.0"?><catalog/>', "xml", "application/xml"],
    ['<rss version="2.0"><channel/></rss>', "xml", "application/xml"],
    ['<feed xmlns="http://www.w3.org/2005/Atom">', "xml", "application/xml"],
    [' {"a": [1, 2]}', "json", "application/json"],
    ["[1, 2, 3]", "json", "application/json"],
    ['{"a": 1', "text", "text/plain"],
    ["Just words.\n", "text", "text/plain"],
    ["", "text", "text/plain"],
  ])("%j → %s", async (content, kind, mime) => {
    expect(await sniff(utf8(content))).toEqual({ ok: true, kind, mime });
  });

  it("sniffs UTF-16 text with a BOM as text, not binary", async () => {
    expect(await sniff(new Uint8Array([0xff, 0xfe, 0x68, 0x00, 0x69, 0x00]))).toEqual({ ok: true, kind: "text", mime: "text/plain" });
    expect(await sniff(new Uint8Array([0xfe, 0xff, 0x00, 0x3c, 0x00, 0x68, 0x00, 0x74, 0x00, 0x6d, 0x00, 0x6c, 0x00, 0x3e]))).toEqual({
      ok: true,
      kind: "html",
      mime: "text/html",
    });
  });

  it("accepts windows-1252 text (a few invalid UTF-8 bytes) as text", async () => {
    expect(await sniff(bytesOf("Caf", [0xe9], " cr", [0xe8], "me br", [0xfb], "l", [0xe9], "e"))).toEqual({ ok: true, kind: "text", mime: "text/plain" });
  });

  it.each([
    ["NUL bytes", bytesOf("abc", [0], "def")],
    ["control bytes", bytesOf("ab", [1, 2, 3], "cd")],
    ["mostly invalid UTF-8", new Uint8Array([0x80, 0x81, 0x82, 0x41, 0x83, 0x84])],
  ])("refuses %s as binary", async (_name, bytes) => {
    expect(await sniff(bytes)).toEqual({ ok: false, message: `This is binary data of an unrecognised format${BINARY_TAIL}` });
  });
});

describe("detectContentType: documents to convert", () => {
  it.each([
    [{ contentType: "application/pdf", url: "https://example.test/x", bytes: utf8("x") }, "a PDF document"],
    [{ url: "https://example.test/paper.pdf", bytes: utf8("x") }, "a PDF document"],
    [{ contentType: "text/html", url: "https://example.test/x", bytes: utf8("%PDF-1.7\n%âãÏÓ") }, "a PDF document"],
    [{ contentType: "application/msword", url: "https://example.test/x", bytes: utf8("x") }, "a Word document"],
    [{ url: "https://example.test/a.doc", bytes: utf8("x") }, "a Word document"],
    [{ url: "https://example.test/a.docx", bytes: utf8("x") }, "a Word document"],
    [{ url: "https://example.test/a.xls", bytes: utf8("x") }, "an Excel spreadsheet"],
    [{ url: "https://example.test/a.xlsx", bytes: utf8("x") }, "an Excel spreadsheet"],
    [{ url: "https://example.test/a.ppt", bytes: utf8("x") }, "a PowerPoint presentation"],
    [{ url: "https://example.test/a.pptx", bytes: utf8("x") }, "a PowerPoint presentation"],
    [{ url: "https://example.test/a.odt", bytes: utf8("x") }, "an OpenDocument file"],
    [{ url: "https://example.test/a.ods", bytes: utf8("x") }, "an OpenDocument file"],
    [{ url: "https://example.test/a.odp", bytes: utf8("x") }, "an OpenDocument file"],
    [{ url: "https://example.test/a.epub", bytes: utf8("x") }, "an EPUB e-book"],
    [
      { contentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document", url: "https://example.test/x", bytes: utf8("x") },
      "a Word document",
    ],
    [
      { contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", url: "https://example.test/x", bytes: utf8("x") },
      "an Excel spreadsheet",
    ],
    [
      { contentType: "application/vnd.openxmlformats-officedocument.presentationml.presentation", url: "https://example.test/x", bytes: utf8("x") },
      "a PowerPoint presentation",
    ],
    [{ contentType: "application/vnd.ms-excel", url: "https://example.test/x", bytes: utf8("x") }, "an Excel spreadsheet"],
    [{ contentType: "application/vnd.oasis.opendocument.text", url: "https://example.test/x", bytes: utf8("x") }, "an OpenDocument file"],
    [{ contentType: "application/epub+zip", url: "https://example.test/x", bytes: utf8("x") }, "an EPUB e-book"],
    [
      { contentType: "application/octet-stream", url: "https://example.test/x", bytes: bytesOf([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0]) },
      "a Microsoft Office document (legacy format)",
    ],
    // A ZIP or compound file whose first bytes do not say which document it holds is named by the header or extension.
    [
      { contentType: "application/vnd.openxmlformats-officedocument.presentationml.presentation", url: "https://example.test/x", bytes: bytesOf("PK", [3, 4, 0]) },
      "a PowerPoint presentation",
    ],
    [{ contentType: "application/octet-stream", url: "https://example.test/book.epub", bytes: bytesOf("PK", [3, 4, 0]) }, "an EPUB e-book"],
    [{ url: "https://example.test/sheet.xls", bytes: bytesOf([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0]) }, "an Excel spreadsheet"],
  ])("%j is %s, with the convert_content hint", async (input, name) => {
    expect(await detectContentType(input)).toEqual({
      ok: false,
      message: `This is ${name}, not a web page or text file, so it cannot be read directly; ${CONVERT_HINT}`,
    });
  });

  it.each([
    ["DOCX", buildDocx(), "a Word document"],
    ["XLSX", buildXlsx({ sheets: [{ name: "a", rows: [["a"]] }] }), "an Excel spreadsheet"],
    ["PPTX", buildPptx({ slides: [{ title: "a" }] }), "a PowerPoint presentation"],
    ["ODS", buildOds({ sheets: [{ name: "a", rows: [["a"]] }] }), "an OpenDocument file"],
    ["EPUB", buildEpub({ chapters: ["<p>a</p>"] }), "an EPUB e-book"],
  ])("the entries that open a %s's ZIP name it, whatever the header says", async (_format, bytes, name) => {
    expect(await detectContentType({ contentType: "text/html", url: "https://example.test/x", bytes })).toEqual({
      ok: false,
      message: `This is ${name}, not a web page or text file, so it cannot be read directly; ${CONVERT_HINT}`,
    });
  });

  it.each([
    [{ url: "https://example.test/a.rtf", bytes: utf8("x") }],
    [{ contentType: "text/plain", url: "https://example.test/x", bytes: utf8("{\\rtf1\\ansi hello}") }],
    [{ contentType: "application/rtf", url: "https://example.test/x", bytes: utf8("x") }],
  ])("%j is an RTF document: the hint points to convert_content", async (input) => {
    expect(await detectContentType(input)).toEqual({
      ok: false,
      message: `This is an RTF document, not a web page or text file, so it cannot be read directly; ${CONVERT_HINT}`,
    });
  });
});

describe("detectContentType: binary content", () => {
  it.each([
    [{ contentType: "application/zip", url: "https://example.test/x", bytes: utf8("x") }, "an archive (application/zip)"],
    [{ contentType: "application/gzip", url: "https://example.test/x", bytes: utf8("x") }, "an archive (application/gzip)"],
    [{ contentType: "image/png", url: "https://example.test/x", bytes: utf8("x") }, "an image (image/png)"],
    [{ contentType: "audio/mpeg", url: "https://example.test/x", bytes: utf8("x") }, "audio (audio/mpeg)"],
    [{ contentType: "video/mp4", url: "https://example.test/x", bytes: utf8("x") }, "a video (video/mp4)"],
    [{ contentType: "font/woff2", url: "https://example.test/x", bytes: utf8("x") }, "a font (font/woff2)"],
    [{ contentType: "application/vnd.ms-fontobject", url: "https://example.test/x", bytes: utf8("x") }, "a font (application/vnd.ms-fontobject)"],
    [{ contentType: "application/wasm", url: "https://example.test/x", bytes: utf8("x") }, "a WebAssembly module"],
    [{ contentType: "application/x-msdownload", url: "https://example.test/x", bytes: utf8("x") }, "an executable (application/x-msdownload)"],
    [{ url: "https://example.test/release.tar.gz", bytes: utf8("x") }, "an archive (.gz)"],
    [{ url: "https://example.test/a.7z", bytes: utf8("x") }, "an archive (.7z)"],
    [{ url: "https://example.test/a.rar", bytes: utf8("x") }, "an archive (.rar)"],
    [{ url: "https://example.test/photo.JPG", bytes: utf8("x") }, "an image (.jpg)"],
    [{ url: "https://example.test/song.mp3", bytes: utf8("x") }, "audio (.mp3)"],
    [{ url: "https://example.test/clip.webm", bytes: utf8("x") }, "a video (.webm)"],
    [{ url: "https://example.test/font.ttf", bytes: utf8("x") }, "a font (.ttf)"],
    [{ url: "https://example.test/mod.wasm", bytes: utf8("x") }, "a WebAssembly module (.wasm)"],
    [{ url: "https://example.test/setup.exe", bytes: utf8("x") }, "an executable (.exe)"],
  ])("%j is %s", async (input, name) => {
    expect(await detectContentType(input)).toEqual({ ok: false, message: `This is ${name}${BINARY_TAIL}` });
  });

  it.each([
    ["PNG", greyPng(1, 1), "an image (image/png)"],
    ["JPEG", bytesOf([0xff, 0xd8, 0xff, 0xe0]), "an image (image/jpeg)"],
    ["GIF", bytesOf("GIF89a", [1, 0]), "an image (image/gif)"],
    ["WebP", bytesOf("RIFF", [0, 0, 0, 0], "WEBPVP8 "), "an image (image/webp)"],
    ["WAV", bytesOf("RIFF", [0, 0, 0, 0], "WAVEfmt "), "audio (audio/wav)"],
    ["MP4", bytesOf([0, 0, 0, 0x18], "ftypmp42", [0]), "a video (video/mp4)"],
    ["AVIF", bytesOf([0, 0, 0, 0x1c], "ftypavif", [0]), "an image (image/avif)"],
    ["MP3", bytesOf("ID3", [3, 0, 0, 0, 0, 0, 0], [0xff, 0xfb, 0x90, 0]), "audio (audio/mpeg)"],
    ["FLAC", bytesOf("fLaC", [0, 0, 0, 0x22]), "audio (audio/flac)"],
    ["WebM", bytesOf([0x1a, 0x45, 0xdf, 0xa3, 0x87, 0x42, 0x82, 0x84], "webm"), "a video (video/webm)"],
    ["gzip", bytesOf([0x1f, 0x8b, 8, 0]), "an archive (application/gzip)"],
    ["ZIP", bytesOf("PK", [3, 4, 20, 0], "src/index.js"), "a ZIP archive"],
    ["7z", bytesOf([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]), "an archive (application/x-7z-compressed)"],
    ["RAR", bytesOf("Rar!", [0x1a, 0x07, 0]), "an archive (application/x-rar-compressed)"],
    ["bzip2", bytesOf("BZh91AY&SY", [0x4e, 0xec, 0xe8, 0x36, 0]), "an archive (application/x-bzip2)"],
    ["tar", bytesOf(new Array<number>(257).fill(0x61), "ustar", [0]), "an archive (application/x-tar)"],
    ["WOFF2", bytesOf("wOF2", [0, 1, 0, 0]), "a font (font/woff2)"],
    ["wasm", bytesOf([0], "asm", [1, 0, 0, 0]), "a WebAssembly module"],
    ["ELF", bytesOf([0x7f], "ELF", [2, 1, 1]), "an executable (application/x-elf)"],
    ["PE", bytesOf("MZ", [0x90, 0, 3, 0]), "an executable (application/x-msdownload)"],
    ["Mach-O", bytesOf([0xcf, 0xfa, 0xed, 0xfe, 7, 0]), "an executable (application/x-mach-binary)"],
    ["SQLite", bytesOf("SQLite format 3", [0, 0x10, 0]), "a .sqlite file (application/x-sqlite3)"],
  ])("magic bytes of %s win over a text/html header", async (_name, bytes, name) => {
    expect(await detectContentType({ contentType: "text/html; charset=utf-8", url: "https://example.test/page.html", bytes })).toEqual({
      ok: false,
      message: `This is ${name}${BINARY_TAIL}`,
    });
  });

  it.each(["MZ is the start of this sentence", "BMW makes cars", "ID3 tags label MP3s", "BZh is not bzip2 here"])(
    "does not mistake prose starting like a short signature (%j) for binary",
    async (prose) => {
      expect(await detectContentType({ url: "https://example.test/", bytes: utf8(prose) })).toEqual({ ok: true, kind: "text", mime: "text/plain" });
    },
  );
});
