import { describe, expect, it } from "vitest";
import { csvHandler, tsvHandler } from "../src/extract/csv-handler.ts";
import { parseDelimited } from "../src/extract/parse-delimited.ts";

describe("parseDelimited (RFC 4180)", () => {
  it("quoted fields with delimiters, doubled quotes, newlines; CRLF, LF and CR record ends", () => {
    expect(parseDelimited('a,"b,c","say ""hi"""\r\n"multi\r\nline",2,3\n4,5,6\r7,8,9\n', ",")).toEqual([
      ["a", "b,c", 'say "hi"'],
      ["multi\r\nline", "2", "3"],
      ["4", "5", "6"],
      ["7", "8", "9"],
    ]);
  });

  it("empty fields, blank lines skipped, no trailing newline", () => {
    expect(parseDelimited(",x,\n\n\n,,\nlast", ",")).toEqual([["", "x", ""], ["", "", ""], ["last"]]);
  });

  it("is lenient with sloppy quoting", () => {
    expect(parseDelimited('"a"b,c"d"\n"unclosed, runs\nto the end', ",")).toEqual([["ab", 'c"d"'], ["unclosed, runs\nto the end"]]);
  });

  it("splits on tabs for TSV", () => {
    expect(parseDelimited('a\tb,c\t"d\te"\n', "\t")).toEqual([["a", "b,c", "d\te"]]);
  });

  it("an empty input has no rows", () => {
    expect(parseDelimited("", ",")).toEqual([]);
  });
});

describe("csvHandler / tsvHandler", () => {
  it("renders a GFM table with the first row as header, escaping pipes and Markdown, newlines as <br>, ragged rows padded", () => {
    expect(csvHandler.extract({ text: 'name,note,n\r\n"a|b","two\nlines",1\n*x*,[y]\nonly\n', url: "u", mime: "text/csv" })).toEqual({
      content: "| name | note | n |\n| --- | --- | --- |\n| a\\|b | two<br>lines | 1 |\n| \\*x\\* | \\[y\\] |  |\n| only |  |  |",
    });
  });

  it("TSV uses the same implementation with tabs", () => {
    expect(tsvHandler.extract({ text: "k\tv\nx\t1, 2\n", url: "u", mime: "text/tab-separated-values" })).toEqual({
      content: "| k | v |\n| --- | --- |\n| x | 1, 2 |",
    });
    expect([csvHandler.kind, tsvHandler.kind]).toEqual(["csv", "tsv"]);
  });

  it("an empty file is empty content", () => {
    expect(csvHandler.extract({ text: "", url: "u", mime: "text/csv" })).toEqual({ content: "" });
  });
});
