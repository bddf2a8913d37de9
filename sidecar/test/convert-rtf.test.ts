import { describe, expect, it } from "vitest";
import { convertDocument } from "../src/convert/service/convert-document.ts";
import { documentOptions } from "./support/document-fixtures.ts";

const rtf = (body: string, header = "\\ansi\\ansicpg1252\\deff0") =>
  new TextEncoder().encode(`{\\rtf1${header}{\\fonttbl{\\f0\\fswiss Helvetica;}{\\f1 Times;}}{\\colortbl;\\red0\\green0\\blue0;}{\\*\\generator Riched20 10.0;}{\\info{\\title Quarterly notes}{\\author Ann}}\n${body}}`);

async function markdown(bytes: Uint8Array, hints = {}): Promise<string> {
  const result = await convertDocument(bytes, hints, documentOptions());
  if (!result.ok) throw new Error(result.error.message);
  expect(result.value.provider).toBe("rtf");
  return result.value.content;
}

describe("convertDocument: RTF", () => {
  it("reads paragraphs, bold and italic, leaving fonts, colours, the generator and document properties out", async () => {
    const body = "\\pard\\f0\\fs24 The tide was {\\b high} and the {\\i wind} was {\\b\\i strong}.\\par\n\\pard Second \\b line\\b0  here.\\par}";
    expect(await markdown(rtf(body))).toBe("The tide was **high** and the *wind* was ***strong***.\n\nSecond **line** here.");
  });

  it("decodes its code page, Unicode escapes with their fallbacks, and the named characters", async () => {
    const body = "\\pard Caf\\'e9 \\u8364? 5 \\u20320\\'3f\\u22909\\'3f \\emdash\\ldblquote quoted\\rdblquote\\par}";
    expect(await markdown(rtf(body))).toBe("Café € 5 你好 —“quoted”");
    const cyrillic = "\\pard \\'cf\\'f0\\'e8\\'e2\\'e5\\'f2\\par}";
    expect(await markdown(rtf(cyrillic, "\\ansi\\ansicpg1251"))).toBe("Привет");
    const japanese = "\\pard \\'93\\'fa\\'96\\'7b\\par}";
    expect(await markdown(rtf(japanese, "\\ansi\\ansicpg932"))).toBe("日本");
  });

  it("writes headings from outline levels, lists from their bullet and number text, and tables from rows and cells", async () => {
    const body = [
      "\\pard\\outlinelevel0\\b Report\\b0\\par",
      "\\pard Intro text.\\par",
      "\\pard{\\listtext\\'95\\tab}First point\\par",
      "{\\listtext\\'95\\tab}Second point\\par",
      "\\pard{\\pntext 1.\\tab}Step one\\par",
      "\\trowd\\cellx2000\\cellx4000\\pard\\intbl Region\\cell Sales\\cell\\row",
      "\\trowd\\cellx2000\\cellx4000\\pard\\intbl North\\cell 120\\cell\\row",
      "\\pard After the table.\\par}",
    ].join("\n");
    expect(await markdown(rtf(body))).toBe(
      ["# Report", "Intro text.", "- First point\n- Second point\n1. Step one", "| Region | Sales |\n| --- | --- |\n| North | 120 |", "After the table."].join("\n\n"),
    );
  });

  it("keeps a field's result but not its instruction, skips pictures, hidden text and binary data, and escapes Markdown", async () => {
    const body =
      "\\pard See {\\field{\\*\\fldinst HYPERLINK \"https://example.test\"}{\\fldrslt the site}} now.{\\pict\\pngblip 89504e47}{\\v secret} *not emphasis* \\{braces\\}\\par}";
    expect(await markdown(rtf(body))).toBe("See the site now. \\*not emphasis\\* {braces}");
  });

  it("reads a text box's text once, as Word writes it (in an ignorable shape instruction, with a fallback drawing), and skips unknown ignorable destinations", async () => {
    const box = "{\\shp{\\*\\shpinst\\shpleft0\\shptop0{\\sp{\\sn shapeType}{\\sv 202}}{\\shptxt \\pard Boxed text\\par}}{\\shprslt{\\*\\do\\dobxcolumn{\\dptxbx{\\dptxbxtext \\pard Boxed text\\par}}}}}";
    expect(await markdown(rtf(`\\pard Before\\par${box}{\\*\\unknowndest hidden words}\\pard After\\par}`))).toBe("Before\n\nBoxed text\n\nAfter");
  });

  it("skips \\bin's raw bytes, which may look like groups and escapes", async () => {
    expect(await markdown(rtf("\\pard Before \\bin4 }{x\\ after\\par}"))).toBe("Before after");
  });

  it("reads a document nested far deeper than any real one in bounded memory", async () => {
    const deep = `${"{".repeat(200_000)}Deep text${"}".repeat(200_000)}`;
    expect(await markdown(rtf(`\\pard ${deep}\\par}`))).toBe("Deep text");
  });

  it("reads long runs of spaces and line breaks in time linear in them", async () => {
    // No-break spaces inside a bold run; line breaks, and spaces from many runs, before a word.
    const nbsp = `\\pard {\\b a${"\\~".repeat(300_000)}b}\\par`;
    const breaks = `\\pard {\\b bold${"\\line ".repeat(100_000)}x\\line }y\\par`;
    const spaces = `\\pard a${" {\\b  }".repeat(100_000)}b\\par`;
    const text = await markdown(rtf(`${nbsp}\n${breaks}\n${spaces}}`));
    expect(text).toBe(`**a${"\u00a0".repeat(300_000)}b**\n\n**bold${"\n".repeat(100_000)}x**\ny\n\na${" ".repeat(200_000)}b`);
  });

  it("writes a table with one wide row over many short ones without padding every row to its width", async () => {
    const wide = `\\trowd\\pard\\intbl ${"w\\cell ".repeat(5_000)}\\row`;
    const text = await markdown(rtf(`${wide}${"\\trowd\\pard\\intbl n\\cell\\row".repeat(5_000)}}`));
    const lines = text.split("\n");
    expect(lines).toHaveLength(5_002);
    expect(lines[0]).toBe(`| ${Array(5_000).fill("w").join(" | ")} |`);
    expect(lines.slice(2).every((line) => line === "| n |")).toBe(true);
  });

  it("is found by its signature whatever the name, and by its extension or type", async () => {
    expect(await markdown(rtf("\\pard Hello\\par}"), { fileName: "notes.txt" })).toBe("Hello");
    expect(await markdown(rtf("\\pard Hello\\par}"), { contentType: "application/rtf" })).toBe("Hello");
  });
});
