import { describe, expect, it } from "vitest";
import { yamlHandler } from "../src/extract/yaml-handler.ts";

const extract = (text: string) => yamlHandler.extract({ text, url: "https://example.test/c.yaml", mime: "application/yaml" });

describe("yamlHandler", () => {
  it("shows the original text in a yaml fence; title from a top-level title", () => {
    expect(extract("title: My config   \r\nitems:\r\n  - a   # comment\r\n")).toEqual({
      title: "My config",
      content: "```yaml\ntitle: My config   \nitems:\n  - a   # comment\n```",
    });
  });

  it("falls back to a top-level name; non-string values are not titles", () => {
    expect(extract("name: ci\non: [push]\n").title).toBe("ci");
    expect(extract("title: 42\nname: [x]\n")).toEqual({ content: "```yaml\ntitle: 42\nname: [x]\n```" });
  });

  it("accepts multi-document streams and takes the title from the first", () => {
    expect(extract("---\nname: first\n---\nname: second\n")).toEqual({ title: "first", content: "```yaml\n---\nname: first\n---\nname: second\n```" });
  });

  it("throws on invalid YAML", () => {
    expect(() => extract("a: [1, 2\nb: c: d")).toThrow(/Flow sequence in block collection/);
  });
});
