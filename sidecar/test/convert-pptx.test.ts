import { describe, expect, it } from "vitest";
import { convertDocument } from "../src/convert/service/convert-document.ts";
import { buildPptx, documentOptions } from "./support/document-fixtures.ts";

const PPTX = "application/vnd.openxmlformats-officedocument.presentationml.presentation";

const deck = buildPptx({
  title: "Launch Plan",
  slides: [
    { title: "Why now", bullets: ["Demand is up", ["Mostly in Europe", 1], ["Twice last year", 2], "Costs are down"], notes: "Open with the chart.\nKeep it short." },
    {
      title: "Numbers",
      text: ["Figures are in thousands."],
      table: [
        ["Quarter", "Units"],
        ["Q1", "12 | 13"],
        ["Q2", "*18*"],
      ],
    },
    { bullets: ["A slide without a title"] },
  ],
});

describe("convertDocument: PPTX", () => {
  it("writes each slide as a section: title, bullets by level, tables and speaker notes", async () => {
    const result = await convertDocument(deck, {}, documentOptions());
    expect(result).toEqual({
      ok: true,
      value: {
        provider: "pptx",
        title: "Launch Plan",
        truncated: false,
        contentType: PPTX,
        pages: { total: 3, included: 3 },
        content: [
          "## Slide 1: Why now",
          "- Demand is up\n  - Mostly in Europe\n    - Twice last year\n- Costs are down",
          "### Notes",
          "Open with the chart.",
          "Keep it short.",
          "## Slide 2: Numbers",
          "Figures are in thousands.",
          "| Quarter | Units |\n| --- | --- |\n| Q1 | 12 \\| 13 |\n| Q2 | \\*18\\* |",
          "## Slide 3",
          "- A slide without a title",
        ].join("\n\n"),
      },
    });
  });

  it("reads only the selected slides, numbered as in the presentation", async () => {
    const result = await convertDocument(deck, {}, documentOptions({ pages: "2-3" }));
    expect(result.ok && result.value.content.startsWith("## Slide 2: Numbers\n\n")).toBe(true);
    expect(result.ok && result.value.pages).toEqual({ total: 3, included: 2 });
  });

  it("reads at most maxPages slides", async () => {
    const result = await convertDocument(deck, {}, documentOptions({ maxPages: 1 }));
    expect(result.ok && result.value).toMatchObject({ truncated: true, pages: { total: 3, included: 1 } });
    expect(result.ok && result.value.content).not.toContain("Slide 2");
  });

  it("stops reading slides once the Markdown is past maxContentChars", async () => {
    const result = await convertDocument(deck, {}, documentOptions({ maxContentChars: 30 }));
    expect(result.ok && result.value).toMatchObject({ truncated: true, pages: { total: 3, included: 1 }, content: "## Slide 1: Why now\n\n- Demand " });
  });

  it("refuses a selection naming no slide", async () => {
    expect(await convertDocument(deck, {}, documentOptions({ pages: "9" }))).toEqual({
      ok: false,
      error: { code: "INVALID_INPUT", message: 'The document has 3 slides; the selection "9" names none of them.' },
    });
  });

  it("writes pictures as ![alt](file name) in the slide's order, alt text from descr, else title", async () => {
    const pictures = buildPptx({ slides: [{ title: "Photos", text: ["Test image:"], pictures: [{ file: "image1.png", descr: "A grey square" }, { file: "logo 2.png", title: "Logo" }, { file: "image3.png" }] }] });
    const result = await convertDocument(pictures, {}, documentOptions());
    expect(result.ok && result.value.content).toBe(["## Slide 1: Photos", "Test image:", "![A grey square](image1.png)", "![Logo](<logo 2.png>)", "![](image3.png)"].join("\n\n"));
    const inline = await convertDocument(pictures, {}, documentOptions({ images: "inline" }));
    expect(inline.ok && inline.value.content).toContain("![A grey square](data:image/png;base64,");
  });

  it("writes a chart's title and cached data as a table of categories by series", async () => {
    const chart = {
      title: "Sales by region",
      categories: ["North", "South", "East"],
      series: [
        { name: "2023", values: [120, 95, 80] },
        { name: "2024", values: [130, 90, 85.5] },
      ],
    };
    const result = await convertDocument(buildPptx({ slides: [{ title: "Results", chart }] }), {}, documentOptions());
    expect(result.ok && result.value.content).toBe(
      ["## Slide 1: Results", "**Chart: Sales by region**", "| Category | 2023 | 2024 |\n| --- | --- | --- |\n| North | 120 | 130 |\n| South | 95 | 90 |\n| East | 80 | 85.5 |"].join("\n\n"),
    );
  });

  it("writes the first 200 categories of a chart with 300,000 and says how many more there are", async () => {
    const values = Array.from({ length: 300_000 }, (_, i) => i % 7);
    const chart = { title: "Readings", categories: values.map((_, i) => `t${i}`), series: [{ name: "Level", values }] };
    const result = await convertDocument(buildPptx({ slides: [{ title: "Sensor", chart }] }), {}, documentOptions());
    const [, heading, table, more] = (result.ok ? result.value.content : "").split("\n\n");
    expect([heading, more]).toEqual(["**Chart: Readings**", "(299800 more categories not shown)"]);
    expect(table?.split("\n").slice(-1)).toEqual(["| t199 | 3 |"]);
  });

  it("reads grouped shapes in place, nested groups included", async () => {
    const result = await convertDocument(buildPptx({ slides: [{ title: "Grouped", text: ["Before"], group: ["In the group", "Deeper one", "Deeper two"] }] }), {}, documentOptions());
    expect(result.ok && result.value.content).toBe(["## Slide 1: Grouped", "Before", "In the group", "Deeper one", "Deeper two"].join("\n\n"));
  });

  it("writes a SmartArt diagram's text as a list", async () => {
    const result = await convertDocument(buildPptx({ slides: [{ title: "Process", diagram: ["Plan", "Build", "Ship"] }] }), {}, documentOptions());
    expect(result.ok && result.value.content).toBe("## Slide 1: Process\n\n- Plan\n- Build\n- Ship");
  });

  it("fails with CONVERT_FAILED when the presentation lists no slides", async () => {
    const result = await convertDocument(buildPptx({ slides: [] }), {}, documentOptions());
    expect(result).toEqual({ ok: false, error: { code: "CONVERT_FAILED", message: "The presentation has no slides." } });
  });
});
