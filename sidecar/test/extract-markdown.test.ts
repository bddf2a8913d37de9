import { describe, expect, it } from "vitest";
import { MAX_PARSED_YAML_CHARS } from "../src/extract/yaml-handler.ts";
import { markdownHandler } from "../src/extract/markdown-handler.ts";

const extract = (text: string) => markdownHandler.extract({ text, url: "https://example.test/README.md", mime: "text/markdown" });

describe("markdownHandler", () => {
  it("passes the text through with LF newlines; the title is the first # heading", () => {
    expect(extract("Intro *text*\r\n\r\n# The Title #\r\n\r\n## Sub\r\n")).toEqual({
      title: "The Title",
      content: "Intro *text*\n\n# The Title #\n\n## Sub",
    });
  });

  it("takes the title from YAML front matter first", () => {
    expect(extract('---\ntitle: "Front: matter"\ntags: [a]\n---\n# Heading\n')).toEqual({
      title: "Front: matter",
      content: '---\ntitle: "Front: matter"\ntags: [a]\n---\n# Heading',
    });
  });

  it("front matter longer than the YAML parsed at most is not parsed: the title is the first heading", () => {
    const frontMatter = `title: From front matter\nitems:\n${"  - an item\n".repeat(12_000)}`;
    expect(frontMatter.length).toBeGreaterThan(MAX_PARSED_YAML_CHARS);
    expect(extract(`---\n${frontMatter}---\n# Heading\n`).title).toBe("Heading");
  });

  it("front matter without a title (and its # comments) falls back to the first heading after it", () => {
    expect(extract("---\n# a comment\nlayout: post\n---\n\n# Real heading\n").title).toBe("Real heading");
  });

  it("ignores # lines inside fenced code, ## headings and #hashtags", () => {
    expect(extract("```bash\n# install\n```\n~~~\n# also code\n~~~\n## Second level\n#tag\n# Found C#\n").title).toBe("Found C#");
  });

  it("has no title when there is no heading", () => {
    expect(extract("plain\n")).toEqual({ content: "plain" });
  });
});
