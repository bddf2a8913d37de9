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

  it("works from the ranges, never a list of every page: huge ranges and documents claiming 2^53 - 1 pages are answered", () => {
    // A list of every page of these would pass the longest array a JavaScript engine makes (2^32 - 1) and fail.
    const most = Number.MAX_SAFE_INTEGER;
    expect(pagesToRead(`1-${most}`, most, 5, "page")).toEqual({ ok: true, value: { numbers: [1, 2, 3, 4, 5], truncated: true } });
    expect(pagesToRead(`${most - 1}-${most},2-${most - 3}`, most, 3, "page")).toEqual({ ok: true, value: { numbers: [2, 3, 4], truncated: true } });
    expect(pagesToRead(undefined, most, 2, "page")).toEqual({ ok: true, value: { numbers: [1, 2], truncated: true } });
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
