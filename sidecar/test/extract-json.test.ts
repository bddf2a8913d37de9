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
});
