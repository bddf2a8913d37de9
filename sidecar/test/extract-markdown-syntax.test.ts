import { describe, expect, it } from "vitest";
import { codeSpan, escapeInline, escapeLineStart, escapeText, fencedBlock, oneLineCodeSpan } from "../src/extract/markdown-syntax.ts";
import { markdownTable } from "../src/extract/markdown-table.ts";
import { resolveUrl } from "../src/extract/resolve-url.ts";

describe("Markdown writing helpers", () => {
  it.each([
    ["*a* _b_ `c` [d]", "\\*a\\* \\_b\\_ \\`c\\` \\[d\\]"],
    ["snake_case __init__ über_alles", "snake_case \\_\\_init\\_\\_ über_alles"],
    ["<b> <!-- </x> <?p a < b <3", "\\<b> \\<!-- \\</x> \\<?p a < b <3"],
    ["&amp; &#169; &#x1F600; & AT&T &nope", "\\&amp; \\&#169; \\&#x1F600; & AT&T &nope"],
    ["C:\\Users \\* end\\", "C:\\Users \\\\\\* end\\\\"],
  ])("escapeInline(%j)", (text, expected) => {
    expect(escapeInline(text)).toBe(expected);
  });

  it.each([
    ["# h", "\\# h"],
    ["###### h", "\\###### h"],
    ["####### seven", "####### seven"],
    ["#tag", "#tag"],
    [">quote", "\\>quote"],
    ["- item", "\\- item"],
    ["-5 degrees", "-5 degrees"],
    ["+", "\\+"],
    ["12. item", "12\\. item"],
    ["3) item", "3\\) item"],
    ["1.5 litres", "1.5 litres"],
    ["1234567890. ten digits", "1234567890. ten digits"],
    ["===", "\\==="],
    ["- - -", "\\- - -"],
    ["~~~", "\\~~~"],
    ["~~strike~~", "~~strike~~"],
  ])("escapeLineStart(%j)", (line, expected) => {
    expect(escapeLineStart(line)).toBe(expected);
  });

  it("escapeText escapes each line and keeps one blank line between paragraphs", () => {
    expect(escapeText("  # one  \n* two\n\n\n\n 3. three ")).toBe("\\# one\n\\* two\n\n3\\. three");
  });

  it("fencedBlock and codeSpan outgrow backtick runs; info strings lose unsafe characters", () => {
    expect(fencedBlock("a\n```\nb", "c++")).toBe("````c++\na\n```\nb\n````");
    expect(fencedBlock("x", "a b`c")).toBe("```abc\nx\n```");
    expect(codeSpan("plain")).toBe("`plain`");
    expect(codeSpan("a``b")).toBe("```a``b```");
    expect(codeSpan("`x")).toBe("`` `x ``");
    expect(codeSpan(" padded ")).toBe("`  padded  `");
  });

  it("oneLineCodeSpan writes control characters as visible escapes, so text with line breaks stays one code span", () => {
    expect(oneLineCodeSpan("notes.txt\n\n# Heading\r\n## File: x")).toBe("`notes.txt\\n\\n# Heading\\r\\n## File: x`");
    expect(oneLineCodeSpan("a`b\tc\u001b[1m\u0085\u007f")).toBe("``a`b\\tc\\x1b[1m\\x85\\x7f``");
    expect(oneLineCodeSpan("plain name.txt")).toBe("`plain name.txt`");
  });

  it("markdownTable pads rows, escapes pipes and turns newlines into <br>", () => {
    expect(markdownTable([["h1", "h2"], ["a|b"], ["multi\n line ", "", "extra"]])).toBe(
      "| h1 | h2 |  |\n| --- | --- | --- |\n| a\\|b |  |  |\n| multi<br>line |  | extra |",
    );
    expect(markdownTable([])).toBe("");
  });

  it("resolveUrl resolves, refuses script/data URLs and encodes parentheses", () => {
    expect(resolveUrl(" ../b (1).html ", "https://example.test/a/c.html")).toBe("https://example.test/b%20%281%29.html");
    expect(resolveUrl("javascript:alert(1)", "https://example.test/")).toBeUndefined();
    expect(resolveUrl("java\nscript:alert(1)", "https://example.test/")).toBeUndefined();
    expect(resolveUrl("data:text/html,x", "https://example.test/")).toBeUndefined();
    expect(resolveUrl("#", "https://example.test/")).toBeUndefined();
    expect(resolveUrl("http://[bad", "https://example.test/")).toBeUndefined();
  });
});
