import { describe, expect, it } from "vitest";
import { pagesToRead } from "../src/convert/formats/pages-to-read.ts";
import { parsePageSelection } from "../src/convert/formats/parse-page-selection.ts";

describe("parsePageSelection", () => {
  it("reads page numbers and inclusive ranges, spaces allowed", () => {
    expect(parsePageSelection(" 1-3, 7 ,9 - 10")).toEqual({
      ok: true,
      value: [
        { first: 1, last: 3 },
        { first: 7, last: 7 },
        { first: 9, last: 10 },
      ],
    });
  });

  it.each([
    ["", "not valid: use page numbers"],
    ["1,", "not valid: use page numbers"],
    ["a-b", "not valid: use page numbers"],
    ["-3", "not valid: use page numbers"],
    ["2.5", "not valid: use page numbers"],
    ["0", "pages are numbered from 1"],
    ["0-4", "pages are numbered from 1"],
    ["5-2", "the range 5-2 runs backwards"],
  ])("refuses %j (%s)", (spec, message) => {
    expect(parsePageSelection(spec)).toEqual({ ok: false, error: { code: "INVALID_INPUT", message: expect.stringContaining(message) } });
  });
});

describe("pagesToRead", () => {
  it("reads every page without a selection, up to maxPages", () => {
    expect(pagesToRead(undefined, 4, 10, "page")).toEqual({ ok: true, value: { numbers: [1, 2, 3, 4], truncated: false } });
    expect(pagesToRead(undefined, 4, 2, "page")).toEqual({ ok: true, value: { numbers: [1, 2], truncated: true } });
  });

  it("sorts, merges and cuts the selection to the document", () => {
    expect(pagesToRead("7-9,2,1-3,40", 8, 10, "page")).toEqual({ ok: true, value: { numbers: [1, 2, 3, 7, 8], truncated: false } });
  });

  it("applies maxPages to the selected pages", () => {
    expect(pagesToRead("2-6", 10, 3, "page")).toEqual({ ok: true, value: { numbers: [2, 3, 4], truncated: true } });
  });

  it("costs nothing for huge ranges or documents claiming millions of pages", () => {
    const started = Date.now();
    expect(pagesToRead("1-999999999999", 50_000_000, 5, "page")).toEqual({ ok: true, value: { numbers: [1, 2, 3, 4, 5], truncated: true } });
    expect(Date.now() - started).toBeLessThan(100);
  });

  it("refuses a selection naming none of the document's pages, slides or sheets", () => {
    expect(pagesToRead("5", 1, 10, "slide")).toEqual({
      ok: false,
      error: { code: "INVALID_INPUT", message: 'The document has 1 slide; the selection "5" names none of them.' },
    });
    expect(pagesToRead("3-4", 2, 10, "sheet")).toEqual({
      ok: false,
      error: { code: "INVALID_INPUT", message: 'The document has 2 sheets; the selection "3-4" names none of them.' },
    });
  });
});
