import { describe, expect, it } from "vitest";
import { convertDocument } from "../src/convert/service/convert-document.ts";
import { documentOptions } from "./support/document-fixtures.ts";
import { buildZip } from "./support/document-zip.ts";

const NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"';

/** An OpenDocument file of `kind` ("text", "presentation") whose content.xml body is `body`, with `styles` among its automatic styles. */
function odf(kind: string, body: string, styles = "", title?: string): Uint8Array {
  return buildZip([
    { name: "mimetype", data: `application/vnd.oasis.opendocument.${kind}`, store: true },
    { name: "content.xml", data: `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${NS}><office:automatic-styles>${styles}</office:automatic-styles><office:body><office:${kind}>${body}</office:${kind}></office:body></office:document-content>` },
    ...(title ? [{ name: "meta.xml", data: `<office:document-meta ${NS}><office:meta><dc:title>${title}</dc:title></office:meta></office:document-meta>` }] : []),
  ]);
}
const odt = (body: string, styles = "", title?: string) => odf("text", `<text:sequence-decls><text:sequence-decl text:name="Figure"/></text:sequence-decls>${body}`, styles, title);

async function convert(bytes: Uint8Array) {
  const result = await convertDocument(bytes, { fileName: "notes.odt" }, documentOptions());
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

describe("convertDocument: ODT", () => {
  it("reads headings by outline level, paragraphs with bold, italic and links, lists and tables; notes are not text", async () => {
    const styles =
      '<style:style style:name="T1" style:family="text"><style:text-properties fo:font-weight="bold"/></style:style>' +
      '<style:style style:name="T2" style:family="text"><style:text-properties fo:font-style="italic"/></style:style>' +
      '<text:list-style style:name="L1"><text:list-level-style-number text:level="1"/></text:list-style>';
    const body = [
      '<text:h text:outline-level="1">Tide report</text:h>',
      '<text:p>The tide was <text:span text:style-name="T1">high</text:span> and the <text:span text:style-name="T2">wind</text:span> strong.<text:note text:note-class="footnote"><text:note-citation>1</text:note-citation><text:note-body><text:p>A footnote.</text:p></text:note-body></text:note></text:p>',
      '<text:h text:outline-level="2">Stations</text:h>',
      "<text:list><text:list-item><text:p>Brest</text:p></text:list-item><text:list-item><text:p>Cherbourg</text:p></text:list-item></text:list>",
      '<text:list text:style-name="L1"><text:list-item><text:p>Read</text:p></text:list-item><text:list-item><text:p>Record</text:p></text:list-item></text:list>',
      '<table:table><table:table-column/><table:table-row><table:table-cell><text:p>Station</text:p></table:table-cell><table:table-cell><text:p>Height</text:p></table:table-cell></table:table-row><table:table-row><table:table-cell><text:p>Brest</text:p></table:table-cell><table:table-cell><text:p>2.4</text:p></table:table-cell></table:table-row></table:table>',
      '<text:p>See <text:a xlink:href="https://example.test/tides">the tables</text:a>.<text:line-break/>Next line,<text:s text:c="3"/>spaced.</text:p>',
    ].join("");
    const result = await convert(odt(body, styles, "Tides"));
    expect(result).toMatchObject({ provider: "odt", title: "Tides" });
    expect(result.content).toBe(
      [
        "# Tide report",
        "The tide was **high** and the *wind* strong.",
        "## Stations",
        "- Brest\n- Cherbourg",
        "1. Read\n2. Record",
        "| Station | Height |\n| --- | --- |\n| Brest | 2.4 |",
        "See [the tables](https://example.test/tides).  \nNext line, spaced.",
      ].join("\n\n"),
    );
  });

  it("is known by its mimetype entry whatever the name", async () => {
    const result = await convertDocument(odt("<text:p>Hello</text:p>"), { fileName: "upload.bin" }, documentOptions());
    expect(result.ok && result.value).toMatchObject({ provider: "odt", content: "Hello" });
  });
});

describe("convertDocument: ODP", () => {
  const frame = (text: string, cls = "outline") => `<draw:frame presentation:class="${cls}"><draw:text-box>${text}</draw:text-box></draw:frame>`;
  const slides = [
    `<draw:page draw:name="page1">${frame("<text:p>Tides in 2024</text:p>", "title")}${frame("<text:list><text:list-item><text:p>Higher in spring</text:p></text:list-item><text:list-item><text:p>Lower in autumn</text:p></text:list-item></text:list>")}<presentation:notes><draw:page-thumbnail/>${frame("<text:p>Mention the storm.</text:p>", "notes")}</presentation:notes></draw:page>`,
    `<draw:page draw:name="page2">${frame("<text:p>Stations</text:p>", "title")}<draw:frame><table:table><table:table-row><table:table-cell><text:p>Brest</text:p></table:table-cell><table:table-cell><text:p>2.4</text:p></table:table-cell></table:table-row><table:table-row><table:table-cell><text:p>Sète</text:p></table:table-cell><table:table-cell><text:p>0.3</text:p></table:table-cell></table:table-row></table:table></draw:frame></draw:page>`,
    `<draw:page draw:name="page3">${frame("<text:p>No title here.</text:p>")}</draw:page>`,
  ].join("");

  it("reads each slide under ## Slide N: title, its text boxes, lists and tables, then its notes", async () => {
    const result = await convertDocument(odf("presentation", slides), { fileName: "deck.odp" }, documentOptions());
    expect(result.ok && result.value).toMatchObject({ provider: "odp", pages: { total: 3, included: 3 } });
    expect(result.ok && result.value.content).toBe(
      [
        "## Slide 1: Tides in 2024",
        "- Higher in spring\n- Lower in autumn",
        "### Notes",
        "Mention the storm.",
        "## Slide 2: Stations",
        "| Brest | 2.4 |\n| --- | --- |\n| Sète | 0.3 |",
        "## Slide 3",
        "No title here.",
      ].join("\n\n"),
    );
  });

  it("gives the deck's own title, escapes slide titles, and stops past maxContentChars", async () => {
    const deck = odf("presentation", [`<draw:page>${frame("<text:p>*Not* a [link]</text:p>", "title")}</draw:page>`, ...Array.from({ length: 5 }, (_, i) => `<draw:page>${frame(`<text:p>${"word ".repeat(40)}${i}</text:p>`)}</draw:page>`)].join(""), "", "Deck");
    const result = await convertDocument(deck, { fileName: "deck.odp" }, { ...documentOptions(), maxContentChars: 300 });
    expect(result.ok && result.value).toMatchObject({ title: "Deck", truncated: true, pages: { total: 6, included: 3 } });
    expect(result.ok && result.value.content).toMatch(/^## Slide 1: \\\*Not\\\* a \\\[link\\\]\n/);
  });

  it("reads the slides a page selection names", async () => {
    const result = await convertDocument(odf("presentation", slides), { fileName: "deck.odp" }, { ...documentOptions(), pages: "2" });
    expect(result.ok && result.value.content).toMatch(/^## Slide 2: Stations\n/);
    expect(result.ok && result.value.pages).toEqual({ total: 3, included: 1 });
  });
});
