import type { Element } from "domhandler";
import { describe, expect, it } from "vitest";
import { isElement, textContent } from "../src/extract/dom.ts";
import { MAX_NESTING } from "../src/extract/parse-html.ts";
import { parseXml } from "../src/extract/parse-xml.ts";

describe("parseXml", () => {
  it("folds elements nested deeper than the cap into the deepest open one", () => {
    const depth = (node: Element): number => 1 + Math.max(0, ...node.children.filter(isElement).map(depth));
    const document = parseXml(`<doc>${"<w:p>".repeat(100_000)}deep text${"</w:p>".repeat(100_000)}<after/></doc>`);
    const [doc] = document.children.filter(isElement);
    expect(depth(doc as Element)).toBe(MAX_NESTING);
    expect(textContent(document)).toBe("deep text");
  });

  it("keeps an attribute's first value in a map without a prototype", () => {
    const [element] = parseXml(`<a id="first" id="second" __proto__="kept">z</a>`).children.filter(isElement);
    expect(Object.getPrototypeOf(element?.attribs)).toBeNull();
    expect(Object.entries(element?.attribs ?? {})).toEqual([["id", "first"], ["__proto__", "kept"]]);
  });
});
