import { describe, expect, it } from "vitest";
import { extractContent } from "../src/extract/extract-content.ts";

const input = (text: string) => ({ text, url: "https://example.test/x", mime: "application/octet-stream" });

describe("extractContent", () => {
  it.each([
    ["html", "<h1>T</h1>", "# T"],
    ["markdown", "# T", "# T"],
    ["json", "[1]", "```json\n[\n  1\n]\n```"],
    ["csv", "a,b", "| a | b |\n| --- | --- |"],
    ["tsv", "a\tb", "| a | b |\n| --- | --- |"],
    ["xml", "<a/>", "```xml\n<a/>\n```"],
    ["yaml", "a: 1", "```yaml\na: 1\n```"],
    ["code", "x()", "```\nx()\n```"],
    ["text", "plain  ", "plain"],
  ] as const)("routes %s to its handler", (kind, text, content) => {
    expect(extractContent(kind, input(text)).content).toBe(content);
  });

  it("passes the language through to the code handler", () => {
    expect(extractContent("code", { ...input("x = 1"), language: "python" })).toEqual({ content: "```python\nx = 1\n```" });
  });

  it("falls back to the text handler with a one-line parseWarning when JSON does not parse", () => {
    expect(extractContent("json", input('{"a": 1,}  \r\n'))).toEqual({
      content: '{"a": 1,}',
      // V8 words the reason; only its presence on one line is ours.
      parseWarning: expect.stringMatching(/^JSON could not be parsed \([^\n]*position 8[^\n]*\); showing the raw text$/),
    });
  });

  it("keeps only the first line of a multi-line error (YAML's message includes an excerpt)", () => {
    expect(extractContent("yaml", input("a: [1, 2\nb: c: d"))).toEqual({
      content: "a: [1, 2\nb: c: d",
      parseWarning:
        "YAML could not be parsed (Flow sequence in block collection must be sufficiently indented and end with a ] at line 2, column 1); showing the raw text",
    });
  });

  it("a successful handler has no parseWarning", () => {
    expect(extractContent("json", input("{}"))).not.toHaveProperty("parseWarning");
  });
});
