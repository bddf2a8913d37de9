import { describe, expect, it } from "vitest";
import { convertDocument } from "../src/convert/service/convert-document.ts";
import { buildEpub, documentOptions } from "./support/document-fixtures.ts";
import { buildZip } from "./support/document-zip.ts";

const book = buildEpub({
  title: "A Small Book",
  chapters: [
    "<h1>Chapter One</h1><p>It began with a <em>letter</em> at dawn.</p>",
    '<h1>Chapter Two</h1><ul><li>First</li><li>Second</li></ul><p><img src="../Images/map.png" alt="A map"/>See <a href="chapter%201.xhtml">the start</a>.</p>',
    "<h1>Chapter Three</h1><table><tr><th>Day</th><th>Miles</th></tr><tr><td>1</td><td>12</td></tr></table>",
  ],
});

describe("convertDocument: EPUB", () => {
  it("writes the chapters in spine order through the HTML renderer, with the book's title", async () => {
    const result = await convertDocument(book, {}, documentOptions());
    expect(result).toEqual({
      ok: true,
      value: {
        provider: "epub",
        title: "A Small Book",
        truncated: false,
        contentType: "application/epub+zip",
        pages: { total: 3, included: 3 },
        content: [
          "# Chapter One",
          "It began with a *letter* at dawn.",
          "# Chapter Two",
          "- First\n- Second",
          "See the start.",
          "# Chapter Three",
          "| Day | Miles |\n| --- | --- |\n| 1 | 12 |",
        ].join("\n\n"),
      },
    });
  });

  it("reads the selected chapters and at most maxPages of them", async () => {
    const selected = await convertDocument(book, {}, documentOptions({ pages: "2" }));
    expect(selected.ok && selected.value.content.startsWith("# Chapter Two")).toBe(true);
    const first = await convertDocument(book, {}, documentOptions({ maxPages: 1 }));
    expect(first.ok && first.value).toMatchObject({ truncated: true, pages: { total: 3, included: 1 }, content: "# Chapter One\n\nIt began with a *letter* at dawn." });
  });

  it("fails clearly on an EPUB without a package document", async () => {
    const broken = buildZip([{ name: "mimetype", data: "application/epub+zip", store: true }]);
    expect(await convertDocument(broken, {}, documentOptions())).toEqual({
      ok: false,
      error: { code: "CONVERT_FAILED", message: "The e-book names no package document (META-INF/container.xml); it is not a readable EPUB." },
    });
  });
});
