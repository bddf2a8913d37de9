import { describe, expect, it } from "vitest";
import { MAX_PARSED_YAML_CHARS, yamlHandler } from "../src/extract/yaml-handler.ts";

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

  it("shows YAML longer than it parses as written, unproved and without a title", () => {
    const text = `title: Big\nitems:\n${"  - an item\n".repeat(12_000)}a: [1, 2\nb: c: d`;
    expect(text.length).toBeGreaterThan(MAX_PARSED_YAML_CHARS);
    expect(extract(text)).toEqual({ content: `\`\`\`yaml\n${text}\n\`\`\`` });
  });
});
