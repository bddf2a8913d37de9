import { describe, expect, it } from "vitest";
import { dateStyleOf, formatSerialDate } from "../src/convert/formats/excel-date.ts";

describe("dateStyleOf", () => {
  it.each([
    [14, undefined, "date"],
    [22, undefined, "datetime"],
    [20, undefined, "time"],
    [0, undefined, undefined],
    [46, undefined, undefined],
    [164, "yyyy-mm-dd", "date"],
    [164, "dd/mm/yyyy hh:mm", "datetime"],
    [164, "h:mm AM/PM", "time"],
    [164, "mmm yy", "date"],
    [164, "[$-409]mmmm d, yyyy;@", "date"],
    [164, "[h]:mm:ss", undefined],
    [164, "#,##0.00", undefined],
    [164, '0.0 "days"', undefined],
    [164, "General", undefined],
    [164, "[Red]0.00", undefined],
    [45, undefined, "time"],
    [12, undefined, undefined],
    [164, "[mm]:ss", undefined],
    [164, 'yyyy"年"m"月"d"日"', "date"],
    [164, "# ?/?", undefined],
  ])("format %i %j shows %s", (id, code, style) => {
    expect(dateStyleOf(id, code)).toBe(style);
  });
});

describe("formatSerialDate", () => {
  it("writes serial days as ISO dates and times", () => {
    expect(formatSerialDate(45292, "date", false)).toBe("2024-01-01");
    expect(formatSerialDate(45292.5, "datetime", false)).toBe("2024-01-01 12:00");
    expect(formatSerialDate(0.75, "time", false)).toBe("18:00");
    expect(formatSerialDate(0.5000115740740741, "time", false)).toBe("12:00:01");
  });

  it("counts from 1900-01-01, past Lotus's phantom 1900-02-29, or from 1904 when the workbook says so", () => {
    expect(formatSerialDate(1, "date", false)).toBe("1900-01-01");
    expect(formatSerialDate(59, "date", false)).toBe("1900-02-28");
    expect(formatSerialDate(61, "date", false)).toBe("1900-03-01");
    expect(formatSerialDate(0, "date", true)).toBe("1904-01-01");
    expect(formatSerialDate(45292.75, "datetime", true)).toBe("2028-01-02 18:00");
  });

  it("leaves numbers that are no date alone", () => {
    expect(formatSerialDate(-1, "date", false)).toBeUndefined();
    expect(formatSerialDate(3e6, "date", false)).toBeUndefined();
  });
});
