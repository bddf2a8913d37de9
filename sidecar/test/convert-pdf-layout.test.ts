import { describe, expect, it } from "vitest";
import { convertDocument } from "../src/convert/service/convert-document.ts";
import { layOutPage, linesOf } from "../src/convert/formats/pdf-layout.ts";
import { buildPdf, documentOptions, type PdfPageSpec } from "./support/document-fixtures.ts";

async function markdown(pages: PdfPageSpec[]): Promise<string> {
  const result = await convertDocument(await buildPdf({ pages }), {}, documentOptions());
  if (!result.ok) throw new Error(result.error.message);
  return result.value.content;
}

/** Lines of 11 pt text from the top of the page, 14 pt apart (one paragraph). */
const lines = (texts: string[], top = 700, x = 72) => texts.map((text, i) => ({ text, x, y: top - i * 14 }));

/** Rows of cells at the given column positions, 14 pt apart; null leaves a cell empty. */
const grid = (rows: (string | null)[][], columns: number[], top = 600) =>
  rows.flatMap((row, r) => row.flatMap((cell, c) => (cell === null ? [] : [{ text: cell, x: columns[c] as number, y: top - r * 14 }])));

describe("convertDocument: PDF tables", () => {
  it("writes a borderless table, its sparse cells empty, between the text around it", async () => {
    const content = await markdown([
      {
        draws: [
          ...lines(["The results of the trial are below."]),
          ...grid(
            [
              ["Patient", "Dose", "Outcome"],
              ["A-17", "5 mg", "Improved"],
              ["B-02", null, "Stable"],
              ["C-11", "10 mg", null],
            ],
            [72, 200, 330],
          ),
          ...lines(["All patients finished the trial."], 520),
        ],
      },
    ]);
    expect(content).toBe(
      [
        "<!-- page 1 -->",
        "The results of the trial are below.",
        "| Patient | Dose | Outcome |\n| --- | --- | --- |\n| A-17 | 5 mg | Improved |\n| B-02 |  | Stable |\n| C-11 | 10 mg |  |",
        "All patients finished the trial.",
      ].join("\n\n"),
    );
  });

  it("writes a form of labels and values as a two-column table", async () => {
    const content = await markdown([
      { draws: grid([["Insured name:", "Gabriel Diaz"], ["Year:", "2022"], ["Claim #:", "CL-4471"]], [72, 250]) },
    ]);
    expect(content).toBe("<!-- page 1 -->\n\n|  |  |\n| --- | --- |\n| Insured name: | Gabriel Diaz |\n| Year: | 2022 |\n| Claim #: | CL-4471 |");
  });

  it("writes a form of several label/value pairs a line as a two-column table of its pairs", async () => {
    const content = await markdown([
      {
        draws: grid(
          [
            ["Insured name:", "Gabriel Diaz", "Year:", "2022"],
            ["Claim #:", "CL-4471", "Date:", "2024-05-02"],
            ["Agent:", "R. Moss", null, null],
          ],
          [72, 160, 330, 400],
        ),
      },
    ]);
    expect(content).toBe(
      "<!-- page 1 -->\n\n|  |  |\n| --- | --- |\n| Insured name: | Gabriel Diaz |\n| Year: | 2022 |\n| Claim #: | CL-4471 |\n| Date: | 2024-05-02 |\n| Agent: | R. Moss |",
    );
  });

  it("leaves two lines of two cells, and two columns of prose, as text", async () => {
    const pairs = await markdown([{ draws: grid([["Left", "Right"], ["Below", "Again"]], [72, 250]) }]);
    expect(pairs).toBe("<!-- page 1 -->\n\nLeft Right Below Again");
    const left = ["A column of prose with lines long", "enough to be read as running text", "rather than as cells of a table."];
    const right = ["The other column of prose goes on", "with lines just as long as those on", "the left, so both read as text."];
    const prose = await markdown([{ draws: [...lines(left, 700, 72), ...lines(right, 700, 320)] }]);
    expect(prose).toBe(`<!-- page 1 -->\n\n${left.join(" ")}\n\n${right.join(" ")}`);
  });

  /** A bordered table whose cells sit closer together than a gutter: only its ruling lines tell the columns apart. */
  const BORDERED = [
    ["Code", "Dose", "Result"],
    ["A-17", "5 mg", "Better"],
    ["B-02", "2 mg", "Same"],
    ["C-11", "9 mg", "Worse"],
  ];
  const cells = grid(BORDERED, [70, 110, 150]);
  const RULE_XS = [68, 108, 148, 188];
  const BORDERED_MARKDOWN = "| Code | Dose | Result |\n| --- | --- | --- |\n| A-17 | 5 mg | Better |\n| B-02 | 2 mg | Same |\n| C-11 | 9 mg | Worse |";

  it("reads a bordered table's columns from its ruling lines, where the cells are too close for gutters", async () => {
    const verticals = RULE_XS.map((x) => ({ x1: x, y1: 554, x2: x, y2: 611, thickness: 0.5 }));
    const horizontals = [611, 597, 583, 569, 554].map((y) => ({ x1: 68, y1: y, x2: 188, y2: y, thickness: 0.5 }));
    expect(await markdown([{ draws: cells, strokes: [...verticals, ...horizontals] }])).toBe(`<!-- page 1 -->\n\n${BORDERED_MARKDOWN}`);
    // The same cells without their rules are lines of text, not a table.
    expect(await markdown([{ draws: cells }])).not.toContain("| --- |");
  });

  it("joins a cell's text wrapped over lines into its row, where row borders say the lines are one row", async () => {
    const draws = [
      { text: "Code", x: 70, y: 600 },
      { text: "Note", x: 110, y: 600 },
      { text: "Dose", x: 180, y: 600 },
      { text: "A-17", x: 70, y: 586 },
      { text: "Taken with", x: 110, y: 586 },
      { text: "5 mg", x: 180, y: 586 },
      { text: "food", x: 110, y: 574 },
      { text: "B-02", x: 70, y: 560 },
      { text: "Same", x: 110, y: 560 },
      { text: "2 mg", x: 180, y: 560 },
    ];
    const verticals = [68, 108, 178, 218].map((x) => ({ x1: x, y1: 556, x2: x, y2: 611, thickness: 0.5 }));
    const borders = [611, 597, 570, 556].map((y) => ({ x1: 68, y1: y, x2: 218, y2: y, thickness: 0.5 }));
    const table = "| Code | Note | Dose |\n| --- | --- | --- |\n| A-17 | Taken with food | 5 mg |\n| B-02 | Same | 2 mg |";
    expect(await markdown([{ draws, strokes: [...verticals, ...borders] }])).toBe(`<!-- page 1 -->\n\n${table}`);
    // Without the row borders each line is a row of its own.
    expect(await markdown([{ draws, strokes: verticals }])).toContain("|  | food |  |");
  });

  it("reads cell borders drawn as thin filled rectangles as ruling lines, and wide filled shapes as none", async () => {
    const borders = RULE_XS.map((x) => ({ x: x - 0.4, y: 554, width: 0.8, height: 57 }));
    expect(await markdown([{ draws: cells, fills: borders }])).toBe(`<!-- page 1 -->\n\n${BORDERED_MARKDOWN}`);
    // A chart's bars behind a line of text do not cut it.
    const bars = [100, 160, 220].map((x) => ({ x, y: 690, width: 30, height: 30 }));
    const line = "Sales rose in every region this year, most of all in the north.";
    expect(await markdown([{ draws: [{ text: line, x: 72, y: 700 }], fills: bars }])).toBe(`<!-- page 1 -->\n\n${line}`);
  });
});

describe("layOutPage", () => {
  it("lays out a table of 130,000 cells, more than a call takes as arguments", () => {
    // 13,000 rows of 10 cells in tiny type: what a page's text can place, whatever a real document does.
    const items = Array.from({ length: 130_000 }, (_, i) => {
      const [row, column] = [Math.floor(i / 10), i % 10];
      return { text: `v${(row + column) % 7}`, x: 50 + column * 40, y: 750 - row * 0.046, width: 0.037, size: 0.028 };
    });
    const blocks = layOutPage(linesOf(items));
    expect(blocks.map((block) => [block.table?.length, block.table?.[0]?.length])).toEqual([[13_000, 10]]);
    expect(blocks[0]?.table?.[12_999]).toEqual(Array.from({ length: 10 }, (_, column) => `v${(12_999 + column) % 7}`));
  });
});

describe("convertDocument: PDF text defects", () => {
  it("drops a hyphen that broke a word across lines, unless the document hyphenates that word", async () => {
    const content = await markdown([
      { draws: lines(["A chat-optimized model writes short, and the chat-", "optimized one again; the line-", "breaking hyphen of a hyphen-", "ated word goes."]) },
    ]);
    expect(content).toBe("<!-- page 1 -->\n\nA chat-optimized model writes short, and the chat-optimized one again; the linebreaking hyphen of a hyphenated word goes.");
  });

  it("joins a block of 24,000 lines, each broken at a hyphen, in time linear in them", async () => {
    // Tiny type, so that they all fit on one page as one block.
    const line = "some words in a line with a break-";
    const draws = Array.from({ length: 24_000 }, (_, i) => ({ text: line, x: 72, y: 750 - i * 0.026, size: 0.02 }));
    expect(await markdown([{ draws }])).toBe(`<!-- page 1 -->\n\n${line.slice(0, -1).repeat(24_000)}-`);
  });

  it("joins one word broken over 24,000 lines, looking it up by its last 100 characters only", async () => {
    // Every line is letters and a hyphen, so the broken word grows by each line: carried whole, it was read again at each.
    const line = "abcdefghijklmnopqrstuvwxyzabcdefgh-";
    const draws = Array.from({ length: 24_000 }, (_, i) => ({ text: line, x: 72, y: 750 - i * 0.026, size: 0.02 }));
    expect(await markdown([{ draws }])).toBe(`<!-- page 1 -->\n\n${line.slice(0, -1).repeat(24_000)}-`);
  });

  it("looks for hyphenated words in a line of 300,000 letters in time linear in it", async () => {
    const letters = "a".repeat(300_000);
    expect(await markdown([{ draws: [{ text: `${letters} b`, x: 0, y: 700, size: 0.003 }] }])).toBe(`<!-- page 1 -->\n\n${letters} b`);
  });

  it("keeps a hyphen before a capital or a digit, without a space", async () => {
    const content = await markdown([{ draws: lines(["The mid-", "Atlantic states and COVID-", "19 cases."]) }]);
    expect(content).toBe("<!-- page 1 -->\n\nThe mid-Atlantic states and COVID-19 cases.");
  });

  const body = ["Estimates are free and take about an hour to prepare for most cars.", "We work with every insurer and guarantee our repairs for as long", "as you own the car, parts and paint included."];

  it("keeps a heading from swallowing the line below it when only a few of its words are in the heading's size", async () => {
    const content = await markdown([
      {
        draws: [
          { text: "Certified Collision Repair", x: 72, y: 720, size: 16 },
          { text: "123 Main Street,", x: 72, y: 702, size: 16 },
          { text: "Springfield, IL 62701, Phone: (555) 010-0199", x: 200, y: 702 },
          ...lines(body, 682),
        ],
      },
    ]);
    expect(content).toBe(`<!-- page 1 -->\n\n# Certified Collision Repair\n\n123 Main Street, Springfield, IL 62701, Phone: (555) 010-0199\n\n${body.join(" ")}`);
  });

  it("keeps a short heading from swallowing the address set in its size below it", async () => {
    const content = await markdown([
      {
        draws: [
          { text: "Certified Collision Repair", x: 72, y: 720, size: 16 },
          { text: "123 Main Street, Springfield, IL 62701, Phone: (555) 010-0199", x: 72, y: 702, size: 16 },
          ...lines(body, 670),
        ],
      },
    ]);
    expect(content).toBe(
      "<!-- page 1 -->\n\n# Certified Collision Repair\n\n123 Main Street, Springfield, IL 62701, Phone: (555) 010-0199\n\nEstimates are free and take about an hour to prepare for most cars. We work with every insurer and guarantee our repairs for as long as you own the car, parts and paint included.",
    );
  });

  it("keeps a heading that wraps over two lines whole", async () => {
    const content = await markdown([
      {
        draws: [
          { text: "A Long Title That Runs Across The Whole", x: 72, y: 720, size: 20 },
          { text: "Width Of The Page", x: 72, y: 696, size: 20 },
          ...lines(["Body text follows the title and is long enough to be the body size."], 660),
        ],
      },
    ]);
    expect(content).toBe("<!-- page 1 -->\n\n# A Long Title That Runs Across The Whole Width Of The Page\n\nBody text follows the title and is long enough to be the body size.");
  });

  it("gives a title the same level on every page, its size varying a little", async () => {
    const page = (size: number): PdfPageSpec => ({
      draws: [
        { text: "Chapter Title", x: 72, y: 720, size: 24 },
        { text: "Section", x: 72, y: 690, size },
        ...lines(["Body text of the section, long enough to set the body size of the page."], 660),
      ],
    });
    const content = await markdown([page(16), page(16.6), page(15.7)]);
    expect(content.match(/^#+ Section$/gm)).toEqual(["## Section", "## Section", "## Section"]);
  });
});
