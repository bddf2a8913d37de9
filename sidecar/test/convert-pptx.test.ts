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
          "Notes:",
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

  it("fails with CONVERT_FAILED when the presentation lists no slides", async () => {
    const result = await convertDocument(buildPptx({ slides: [] }), {}, documentOptions());
    expect(result).toEqual({ ok: false, error: { code: "CONVERT_FAILED", message: "The presentation has no slides." } });
  });
});
