import { describe, expect, it } from "vitest";
import { textHandler } from "../src/extract/text-handler.ts";

const extract = (text: string) => textHandler.extract({ text, url: "https://example.test/a.txt", mime: "text/plain" });

describe("textHandler", () => {
  it("normalises newlines, trims trailing spaces and collapses runs of blank lines; no title", () => {
    expect(extract("\r\n\nTitle line  \r\nsecond\t\r\rthird\n\n\n\n\nfourth   \n\n")).toEqual({ content: "Title line\nsecond\n\nthird\n\nfourth" });
  });

  it("keeps leading indentation and single blank lines", () => {
    expect(extract("  indented\n\n    code-ish\n")).toEqual({ content: "  indented\n\n    code-ish" });
  });

  it("does not escape or reformat Markdown-looking text", () => {
    expect(extract("# not a heading\n* star")).toEqual({ content: "# not a heading\n* star" });
  });
});
