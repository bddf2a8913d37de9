import { describe, expect, it } from "vitest";
import { jsonHandler } from "../src/extract/json-handler.ts";

const extract = (text: string) => jsonHandler.extract({ text, url: "https://example.test/data.json", mime: "application/json" });

describe("jsonHandler", () => {
  it("pretty-prints inside a json fence, keeping numbers exactly as written", () => {
    expect(extract('{"id":12345678901234567890,"price":1.50,"tags":["a"],"empty":{},"list":[]}')).toEqual({
      content: '```json\n{\n  "id": 12345678901234567890,\n  "price": 1.50,\n  "tags": [\n    "a"\n  ],\n  "empty": {},\n  "list": []\n}\n```',
    });
  });

  it("uses a longer fence when a string holds a backtick fence", () => {
    expect(extract('["```"]')).toEqual({ content: '````json\n[\n  "```"\n]\n````' });
  });

  it("throws on invalid JSON", () => {
    expect(() => extract("{'a': 1}")).toThrow(SyntaxError);
  });

  it("JSON-LD gets a readable summary before the JSON", () => {
    const ld = {
      "@context": "https://schema.org",
      "@type": "NewsArticle",
      headline: "Big *news*",
      description: "What happened.",
      author: [{ "@type": "Person", name: "Ann" }, "Bob"],
      datePublished: "2024-05-01",
      articleBody: "First paragraph.\n\nSecond paragraph.",
    };
    const out = extract(JSON.stringify(ld));
    expect(out.title).toBe("Big *news*");
    expect(out.content).toBe(
      [
        "# Big \\*news\\*",
        "What happened.",
        "- Author: Ann, Bob\n- Published: 2024-05-01",
        "First paragraph.\n\nSecond paragraph.",
        "```json\n" + JSON.stringify(ld, null, 2) + "\n```",
      ].join("\n\n"),
    );
  });

  it("finds the article in a @graph and uses name when there is no headline", () => {
    const ld = { "@context": { "@vocab": "http://schema.org/" }, "@graph": [{ "@type": "WebSite", url: "/" }, { "@type": "Recipe", name: "Soup", text: "Boil." }] };
    const out = extract(JSON.stringify(ld));
    expect(out.title).toBe("Soup");
    expect(out.content).toBe("# Soup\n\nBoil.\n\n```json\n" + JSON.stringify(ld, null, 2) + "\n```");
  });

  it("plain JSON that merely has a name is not JSON-LD", () => {
    expect(extract('{"name":"pkg","version":"1.0.0"}')).toEqual({ content: '```json\n{\n  "name": "pkg",\n  "version": "1.0.0"\n}\n```' });
  });

  it("JSON-LD with nothing article-like shows only the JSON", () => {
    expect(extract('{"@type":"Thing","url":"/x"}')).toEqual({ content: '```json\n{\n  "@type": "Thing",\n  "url": "/x"\n}\n```' });
  });

  describe("a Jupyter notebook", () => {
    const notebook = {
      nbformat: 4,
      nbformat_minor: 5,
      metadata: { kernelspec: { name: "python3", language: "python" } },
      cells: [
        { cell_type: "markdown", source: ["# Tidal data\n", "\n", "We load the *readings* first."] },
        { cell_type: "code", execution_count: 1, source: ["# read the file\n", "rows = load('tides.csv')\n", "print(len(rows))"], outputs: [{ output_type: "stream", name: "stdout", text: ["1204\n"] }] },
        {
          cell_type: "code",
          source: "rows[0]",
          outputs: [
            { output_type: "execute_result", data: { "text/plain": ["{'height': 2.4}"], "image/png": "iVBORw0KGgo=" } },
            { output_type: "display_data", data: { "text/markdown": "**Peak** at noon" } },
          ],
        },
        { cell_type: "code", source: "1/0", outputs: [{ output_type: "error", ename: "ZeroDivisionError", evalue: "division by zero", traceback: ["\u001b[31m..."] }] },
        { cell_type: "raw", source: "raw text" },
        { cell_type: "code", source: "", outputs: [] },
      ],
    };

    it("reads as its cells: Markdown as written, code fenced in the kernel's language with its outputs, pictures left out", () => {
      expect(extract(JSON.stringify(notebook))).toEqual({
        title: "Tidal data",
        content: [
          "# Tidal data\n\nWe load the *readings* first.",
          "```python\n# read the file\nrows = load('tides.csv')\nprint(len(rows))\n```",
          "```\n1204\n```",
          "```python\nrows[0]\n```",
          "```\n{'height': 2.4}\n```",
          "**Peak** at noon",
          "```python\n1/0\n```",
          "```\nZeroDivisionError: division by zero\n```",
          "```\nraw text\n```",
        ].join("\n\n"),
      });
    });

    it("cells and outputs of blank lines lose their final newlines in time linear in them", () => {
      const blank = "\n".repeat(200_000);
      const cells = [{ cell_type: "code", source: `x${blank}y${blank}`, outputs: [{ output_type: "stream", text: `out${blank}put${blank}` }] }];
      expect(extract(JSON.stringify({ ...notebook, cells })).content).toBe(`\`\`\`python\nx${blank}y\n\`\`\`\n\n\`\`\`\nout${blank}put\n\`\`\``);
    });

    it("takes the notebook's own title, and JSON that merely has cells stays JSON", () => {
      const titled = { ...notebook, metadata: { ...notebook.metadata, title: "Tides, 2024" } };
      expect(extract(JSON.stringify(titled)).title).toBe("Tides, 2024");
      expect(extract(JSON.stringify({ cells: [1, 2] })).content).toMatch(/^```json\n/);
    });
  });
});
