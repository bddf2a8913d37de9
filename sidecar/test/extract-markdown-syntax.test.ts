import { describe, expect, it } from "vitest";
import { codeSpan, escapeInline, escapeLineStart, escapeText, fencedBlock, oneLineCodeSpan } from "../src/extract/markdown-syntax.ts";
import { markdownTable } from "../src/extract/markdown-table.ts";
import { replaceMarkdownLinks } from "../src/extract/markdown-links.ts";
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

  it("markdownTable leaves short rows unpadded when padding would more than double the table, the header as wide as the widest row", () => {
    const rows = [["a"], ["b", "c", "d", "e", "f", "g"], ["h"], ["i"], ["j"], ["k"]];
    expect(markdownTable(rows)).toBe(
      "| a |  |  |  |  |  |\n| --- | --- | --- | --- | --- | --- |\n| b | c | d | e | f | g |\n| h |\n| i |\n| j |\n| k |",
    );
    // A row of 5,000 cells over 5,000 one-cell rows: 10,000 cells written, not 25 million.
    const wide = markdownTable([Array.from({ length: 5000 }, () => "x"), ...Array.from({ length: 5000 }, () => ["y"])]);
    expect(wide.split("\n")).toHaveLength(5002);
    expect(wide.length).toBeLessThan(100_000);
  });

  it("replaceMarkdownLinks reads links and images as a global pattern would: escapes, titles, parentheses one deep", () => {
    const label = (text: string) => replaceMarkdownLinks(text, "link", (inner) => `<${inner}>`);
    expect(label('see [a \\] b](https://x.test/p_(1) "t \\" x") and [c](d)')).toBe("see <a \\] b> and <c>");
    expect(label("\\[not](x) [x](a b) [y](a (b)) [z](a((b))) [w](a\n)")).toBe("\\<not> [x](a b) [y](a (b)) [z](a((b))) [w](a\n)");
    // A backslash before a line break escapes nothing: the label ends there, and a later one is read.
    expect(label("[a\\\n b](x) [c](d)")).toBe("[a\\\n b](x) <c>");
    expect(label('[a](x "open) [b](y)')).toBe('[a](x "open) <b>');
    expect(replaceMarkdownLinks("![alt](i.png) [![alt](i.png)](page) ![x](y", "image", () => "")).toBe(" [](page) ![x](y");
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
