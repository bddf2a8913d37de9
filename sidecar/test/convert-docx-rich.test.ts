import { describe, expect, it } from "vitest";
import { convertDocument } from "../src/convert/service/convert-document.ts";
import { buildDocx, chartXml, documentOptions, greyPng, mathRun, wordComments, wordMath, wordParagraph, wordPicture, wordRun } from "./support/document-fixtures.ts";

const image = (id: string, target: string) => ({ id, type: "image", target });
const png = greyPng(4, 4);

async function markdown(spec: Parameters<typeof buildDocx>[0], options: Parameters<typeof documentOptions>[0] = {}): Promise<string> {
  const result = await convertDocument(buildDocx(spec), {}, documentOptions(options));
  if (!result.ok) throw new Error(result.error.message);
  return result.value.content;
}

/** The Markdown after the default document's own blocks (which end with its table). */
const tail = (content: string) => content.slice(content.indexOf("| South | 95 |") + "| South | 95 |".length).trim();

describe("convertDocument: DOCX pictures", () => {
  it("writes each picture as ![alt](file name) in reading order, alt text from descr, else title", async () => {
    const content = await markdown({
      xml: [
        wordParagraph(`${wordRun("Test image: ")}${wordPicture("rIdImg1", { descr: "A grey square", title: "ignored" })}`),
        wordParagraph(wordPicture("rIdImg2", { title: "Sales chart" })),
        wordParagraph(wordPicture("rIdImg3")),
      ],
      relationships: [image("rIdImg1", "media/image1.png"), image("rIdImg2", "media/chart pic.png"), image("rIdImg3", "media/image3.jpeg")],
      entries: [{ name: "word/media/image1.png", data: png }],
    });
    expect(tail(content)).toBe(["Test image: ![A grey square](image1.png)", "![Sales chart](<chart pic.png>)", "![](image3.jpeg)"].join("\n\n"));
  });

  it("inlines small pictures as data: URIs only with images: inline", async () => {
    const spec = {
      xml: [wordParagraph(wordPicture("rIdImg1", { descr: "Grey" }))],
      relationships: [image("rIdImg1", "media/image1.png")],
      entries: [{ name: "word/media/image1.png", data: png }],
    };
    expect(tail(await markdown(spec))).toBe("![Grey](image1.png)");
    expect(tail(await markdown(spec, { images: "inline" }))).toBe(`![Grey](data:image/png;base64,${Buffer.from(png).toString("base64")})`);
  });

  it("escapes alt text that would read as Markdown", async () => {
    const content = await markdown({ xml: [wordParagraph(wordPicture("rIdImg1", { descr: "a [b] *c* | d" }))], relationships: [image("rIdImg1", "media/x.png")] });
    expect(tail(content)).toBe("![a \\[b\\] \\*c\\* \\| d](x.png)");
  });

  it("writes a chart drawn in the text as its title and cached data", async () => {
    const drawing = `<w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"><wp:docPr id="2" name="Chart 1"/><a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" r:id="rIdChart"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>`;
    const content = await markdown({
      xml: [wordParagraph(wordRun("Before the chart.")), wordParagraph(drawing), wordParagraph(wordRun("After it."))],
      relationships: [{ id: "rIdChart", type: "chart", target: "charts/chart1.xml" }],
      entries: [{ name: "word/charts/chart1.xml", data: chartXml({ title: "Costs", categories: ["Q1", "Q2"], series: [{ name: "Rent", values: [10, 12] }] }) }],
    });
    expect(tail(content)).toBe(["Before the chart.", "**Chart: Costs**", "| Category | Rent |\n| --- | --- |\n| Q1 | 10 |\n| Q2 | 12 |", "After it."].join("\n\n"));
  });

  it("converts a document without pictures, equations or comments exactly as before", async () => {
    const content = await markdown({ paragraphs: ["Plain ending."] });
    expect(tail(content)).toBe("Plain ending.");
  });
});

describe("convertDocument: DOCX equations", () => {
  const cases: [string, string, string][] = [
    ["a fraction", "<m:f><m:num>" + mathRun("a") + "</m:num><m:den>" + mathRun("b") + "</m:den></m:f>", "\\frac{a}{b}"],
    ["sub- and superscripts", `<m:sSubSup><m:e>${mathRun("x")}</m:e><m:sub>${mathRun("i")}</m:sub><m:sup>${mathRun("2")}</m:sup></m:sSubSup>`, "{x}_{i}^{2}"],
    ["a square root", `<m:rad><m:radPr><m:degHide m:val="1"/></m:radPr><m:deg/><m:e>${mathRun("x")}</m:e></m:rad>`, "\\sqrt{x}"],
    ["a cube root", `<m:rad><m:deg>${mathRun("3")}</m:deg><m:e>${mathRun("y")}</m:e></m:rad>`, "\\sqrt[3]{y}"],
    [
      "a sum with limits",
      `<m:nary><m:naryPr><m:chr m:val="∑"/></m:naryPr><m:sub>${mathRun("i=1")}</m:sub><m:sup>${mathRun("n")}</m:sup><m:e>${mathRun("i")}</m:e></m:nary>`,
      "\\sum_{i=1}^{n}{i}",
    ],
    ["an integral (the default operator)", `<m:nary><m:sub>${mathRun("0")}</m:sub><m:sup>${mathRun("1")}</m:sup><m:e>${mathRun("f(x)dx")}</m:e></m:nary>`, "\\int_{0}^{1}{f(x)dx}"],
    [
      "a matrix in brackets",
      `<m:d><m:dPr><m:begChr m:val="["/><m:endChr m:val="]"/></m:dPr><m:e><m:m><m:mr><m:e>${mathRun("1")}</m:e><m:e>${mathRun("0")}</m:e></m:mr><m:mr><m:e>${mathRun("0")}</m:e><m:e>${mathRun("1")}</m:e></m:mr></m:m></m:e></m:d>`,
      "\\left[ \\begin{matrix} 1 & 0 \\\\ 0 & 1 \\end{matrix} \\right]",
    ],
    ["parentheses", `<m:d><m:e>${mathRun("a+b")}</m:e></m:d>`, "\\left( a+b \\right)"],
    ["an accent", `<m:acc><m:accPr><m:chr m:val="\u20d7"/></m:accPr><m:e>${mathRun("v")}</m:e></m:acc>`, "\\vec{v}"],
    ["Greek letters and symbols", mathRun("α≤β"), "\\alpha \\leq \\beta"],
    ["a function", `<m:func><m:fName>${mathRun("sin")}</m:fName><m:e>${mathRun("θ")}</m:e></m:func>`, "\\sin{\\theta}"],
    ["normal text", `<m:r><m:rPr><m:nor/></m:rPr><m:t>if x_1</m:t></m:r>`, "\\text{if x\\_1}"],
  ];
  for (const [name, omml, latex] of cases) {
    it(`writes ${name} as LaTeX`, async () => {
      const content = await markdown({ xml: [wordParagraph(`${wordRun("For ")}${wordMath(omml)}${wordRun(", done.")}`)] });
      expect(tail(content)).toBe(`For $${latex}$, done.`);
    });
  }

  it("tells a phrase of words from math in a run of 200,000 letters in time linear in it", async () => {
    const letters = "x".repeat(200_000);
    const content = await markdown({ xml: [wordParagraph(`${wordRun("For ")}${wordMath(mathRun(`${letters}1`))}${wordRun(", done.")}`)] });
    expect(tail(content)).toBe(`For $${letters}1$, done.`);
  });

  it("writes a display equation as its own $$ paragraph", async () => {
    const content = await markdown({ xml: [wordParagraph(wordMath(`${mathRun("E=m")}<m:sSup><m:e>${mathRun("c")}</m:e><m:sup>${mathRun("2")}</m:sup></m:sSup>`, true))] });
    expect(tail(content)).toBe("$$E=m{c}^{2}$$");
  });

  it("keeps the text of an equation that makes no LaTeX", async () => {
    const content = await markdown({ xml: [wordParagraph(`${wordRun("See ")}${wordMath("<m:f><m:num/><m:den/></m:f>")}${wordRun("here")}`)] });
    expect(tail(content)).toBe("See $\\frac{}{}$here");
    const empty = await markdown({ xml: [wordParagraph(`${wordRun("Nothing ")}${wordMath("")}${wordRun("lost")}`)] });
    expect(tail(empty)).toBe("Nothing lost");
  });
});

describe("convertDocument: DOCX comments and tracked changes", () => {
  const spec = {
    xml: [
      wordParagraph(
        `${wordRun("The budget")}<w:commentRangeStart w:id="7"/>${wordRun(" is final")}<w:commentRangeEnd w:id="7"/><w:r><w:commentReference w:id="7"/></w:r>${wordRun(".")}`,
      ),
    ],
    relationships: [{ id: "rIdComments", type: "comments", target: "comments.xml" }],
    entries: [{ name: "word/comments.xml", data: wordComments([{ id: "7", author: "Ana", text: "Check with *finance*." }]) }],
  };

  it("leaves comments out by default", async () => {
    expect(tail(await markdown(spec))).toBe("The budget is final.");
  });

  it("writes comments as footnotes at their anchors with comments: true", async () => {
    expect(tail(await markdown(spec, { comments: true }))).toBe("The budget is final[^c1].\n\n[^c1]: Ana: Check with \\*finance\\*.");
  });

  it("reads tracked changes as accepted: insertions kept, deletions gone", async () => {
    const content = await markdown({
      xml: [wordParagraph(`${wordRun("Ship in ")}<w:del w:id="1" w:author="A"><w:r><w:delText>May</w:delText></w:r></w:del><w:ins w:id="2" w:author="A">${wordRun("June")}</w:ins>`)],
    });
    expect(tail(content)).toBe("Ship in June");
  });
});
