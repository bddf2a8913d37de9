import { describe, expect, it } from "vitest";
import { findElement, firstShown, shortText } from "../src/extract/dom.ts";
import { parseHtml } from "../src/extract/parse-html.ts";

describe("shortText", () => {
  const element = (html: string, name: string) => findElement(parseHtml(`<body>${html}</body>`), (found) => found.name === name)!;

  it("is an element's trimmed text when it shows at most max characters, a run of spaces showing as one", () => {
    const indented = element(`<div>\n    <span>alice</span>\n        <time>Jan 2</time>\n  </div>`, "div");
    // "alice Jan 2": 11 characters shown, 20 between the first and the last written.
    expect(shortText(indented, 11)).toBe("alice\n        Jan 2");
    expect(shortText(indented, 10)).toBeUndefined();
  });

  it("counts every character that shows, and spaces only between words", () => {
    const words = element(`<div><p>  one  two</p><p>three  </p></div>`, "div");
    // "one twothree": 12 shown; the paragraphs' texts meet with no space between them, as written.
    expect(shortText(words, 12)).toBe("one  twothree");
    expect(shortText(words, 11)).toBeUndefined();
    expect(shortText(element(`<p>   </p>`, "p"), 0)).toBe("");
  });

  it("reads only the elements it is told to", () => {
    const link = element(`<a href="#x">#<span class="sr-only">Permalink to this heading</span></a>`, "a");
    expect(shortText(link, 2, (inner) => inner.attribs.class !== "sr-only")).toBe("#");
    expect(shortText(link, 2)).toBeUndefined();
  });
});

describe("firstShown", () => {
  const element = (html: string) => findElement(parseHtml(`<body>${html}</body>`), (found) => found.name === "div")!;

  it("is a parent's first child past blank text: an element or text that shows", () => {
    expect(firstShown(element("<div>\n  <b>Note:</b> text</div>"))).toMatchObject({ name: "b" });
    expect(firstShown(element("<div>Note: <b>text</b></div>"))).toMatchObject({ data: "Note: " });
    expect(firstShown(element("<div> \n </div>"))).toBeUndefined();
    expect(firstShown(element("<div></div>"))).toBeUndefined();
  });
});
