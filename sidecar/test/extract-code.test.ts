import { describe, expect, it } from "vitest";
import { codeHandler } from "../src/extract/code-handler.ts";

const extract = (text: string, language?: string) =>
  codeHandler.extract({ text, url: "https://example.test/src/main.py", mime: "text/plain", ...(language && { language }) });

describe("codeHandler", () => {
  it("fences the code with its language, normalising newlines and trimming blank edges", () => {
    expect(extract("\r\n\r\ndef f():\r\n    return 1\r\n\r\n", "python")).toEqual({ content: "```python\ndef f():\n    return 1\n```" });
  });

  it("keeps indentation of the first line", () => {
    expect(extract("    indented()\n", "js")).toEqual({ content: "```js\n    indented()\n```" });
  });

  it("uses a fence longer than any backtick run inside", () => {
    expect(extract("s = '```'\nt = '`````'", "python")).toEqual({ content: "``````python\ns = '```'\nt = '`````'\n``````" });
  });

  it("works without a language", () => {
    expect(extract("x")).toEqual({ content: "```\nx\n```" });
  });
});
