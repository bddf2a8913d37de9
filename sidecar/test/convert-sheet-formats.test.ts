import { describe, expect, it } from "vitest";
import { numberFormatText } from "../src/convert/formats/number-format-text.ts";
import { convertDocument } from "../src/convert/service/convert-document.ts";
import { buildOds, buildXlsx, documentOptions } from "./support/document-fixtures.ts";

async function content(bytes: Uint8Array): Promise<string> {
  const result = await convertDocument(bytes, {}, documentOptions());
  if (!result.ok) throw new Error(result.error.message);
  return result.value.content;
}

describe("numberFormatText", () => {
  const cases: [number, string, string | undefined][] = [
    [1234.5, "#,##0.00", "1,234.50"],
    [1234567, "#,##0", "1,234,567"],
    [0.256, "0.0%", "25.6%"],
    [0.5, "0%", "50%"],
    [-1234.5, "#,##0.00;(#,##0.00)", "(1,234.50)"],
    [-3, "0.00", "-3.00"],
    [0, '#,##0;-#,##0;"zero"', "zero"],
    [12345.678, '"$"#,##0.00', "$12,345.68"],
    [99.5, '[$€-407] #,##0.00', "€ 99.50"],
    [42, '0 "kg"', "42 kg"],
    [7, "000", "007"],
    [1.5, "#.##", "1.5"],
    [12345, "0.00E+00", "1.23E+04"],
    [1500000, '#,##0.0,,"M"', "1.5M"],
    [10, "[Red]0.0", "10.0"],
    [3.25, "General", undefined],
    [0.5, "# ?/?", "1/2"],
    [1.25, "# ?/?", "1 1/4"],
    [2.3, "# ??/100", "2 30/100"],
    [5, "[>100]0;0.0", "5.0"],
    [150, "[>100]0;0.0", "150"],
    [-40, '[Blue][>=0]0" up";[Red]0" down"', "-40 down"],
    [3, '0;(0);"none";"text"', "3"],
    [-3, '0;(0);"none";"text"', "(3)"],
    [0, '0;(0);"none";"text"', "none"],
    [1234.5, "[$-407]#,##0.00", "1,234.50"],
    [1, "bad[[[", undefined],
  ];
  for (const [value, code, shown] of cases) {
    it(`shows ${value} in ${code} as ${shown}`, () => expect(numberFormatText(value, code)).toBe(shown));
  }

  it("reads a code of up to 255 characters, and shows the number as stored for a longer one, which may cost far more", () => {
    expect(numberFormatText(2, `0${'" "'.repeat(84)}`)).toBe("2");
    expect(numberFormatText(2, `0${'" "'.repeat(85)}`)).toBeUndefined();
    expect(numberFormatText(2, `${"[$".repeat(100_000)}0`)).toBeUndefined();
    expect(numberFormatText(2, `${" ".repeat(200_000)}0`)).toBeUndefined();
  });
});

describe("convertDocument: XLSX as the sheet shows it", () => {
  it("shows numbers by their number formats, built-in and custom", async () => {
    const bytes = buildXlsx({
      sheets: [
        {
          name: "Money",
          rows: [
            ["Item", "Amount", "Share"],
            ["Rent", { number: 1250, format: 4 }, { number: 0.4, format: 9 }],
            ["Food", { number: 310.456, format: '"$"#,##0.00' }, { number: 0.125, format: "0.0%" }],
          ],
        },
      ],
    });
    expect(await content(bytes)).toBe("## Money\n\n| Item | Amount | Share |\n| --- | --- | --- |\n| Rent | 1,250.00 | 40% |\n| Food | $310.46 | 12.5% |");
  });

  it("shows fractions, conditional and four-section formats, and dates by their formats, built-in and custom", async () => {
    const bytes = buildXlsx({
      sheets: [
        {
          name: "Mixed",
          rows: [
            ["Fraction", "Condition", "Sections", "Date", "Time"],
            [{ number: 1.25, format: 12 }, { number: 150, format: "[>100]0;0.0" }, { number: 0, format: '0;(0);"none";@' }, { date: 45292 }, { number: 0.75, format: 20 }],
            [{ number: 2.5, format: "# ?/?" }, { number: 7, format: "[>100]0;0.0" }, { number: -4, format: '0;(0);"none";@' }, { number: 45292.5, format: "dd/mm/yyyy hh:mm" }, { number: 1.5, format: "[h]:mm" }],
          ],
        },
      ],
    });
    expect(await content(bytes)).toBe(
      "## Mixed\n\n| Fraction | Condition | Sections | Date | Time |\n| --- | --- | --- | --- | --- |\n| 1 1/4 | 150 | none | 2024-01-01 | 18:00 |\n| 2 1/2 | 7.0 | (4) | 2024-01-01 12:00 | 36:00 |",
    );
  });

  it("shows a merged cell's value in every cell it covers", async () => {
    const bytes = buildXlsx({ sheets: [{ name: "Plan", rows: [["Quarter one", null, "Q2"], ["Jan", "Feb", "Apr"]], merges: ["A1:B1"] }] });
    expect(await content(bytes)).toBe("## Plan\n\n| Quarter one | Quarter one | Q2 |\n| --- | --- | --- |\n| Jan | Feb | Apr |");
  });

  it("skips hidden sheets and says which", async () => {
    const bytes = buildXlsx({
      sheets: [
        { name: "Shown", rows: [["a"]] },
        { name: "Lookup", rows: [["secret"]], hidden: "hidden" },
        { name: "Macros", rows: [["x"]], hidden: "veryHidden" },
      ],
    });
    const result = await convertDocument(bytes, {}, documentOptions());
    expect(result.ok && result.value).toMatchObject({ content: "## Shown\n\n| a |\n| --- |\n\n_Hidden sheets are not shown: Lookup, Macros._", pages: { total: 1, included: 1 } });
    const allHidden = await convertDocument(buildXlsx({ sheets: [{ name: "Only", rows: [["a"]], hidden: "hidden" }] }), {}, documentOptions());
    expect(allHidden).toEqual({ ok: false, error: { code: "CONVERT_FAILED", message: "The spreadsheet's worksheets are all hidden (Only); hidden sheets are not read." } });
  });
});

describe("convertDocument: ODS merged cells and hidden sheets", () => {
  it("shows a merged cell's value in the cells it covers, across columns and rows", async () => {
    const bytes = buildOds({
      sheets: [
        {
          name: "Plan",
          rows: [
            [{ merged: "Team", columns: 2, rows: 2 }, { covered: 1 }, "Lead"],
            [{ covered: 2 }, "Ana"],
            ["Ops", "Bo", "Cy"],
          ],
        },
        { name: "Old", rows: [["hidden text"]], hidden: true },
      ],
    });
    expect(await content(bytes)).toBe(
      "## Plan\n\n| Team | Team | Lead |\n| --- | --- | --- |\n| Team | Team | Ana |\n| Ops | Bo | Cy |\n\n_Hidden sheets are not shown: Old._",
    );
  });
});
