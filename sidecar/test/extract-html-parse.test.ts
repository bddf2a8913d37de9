import type { Element } from "domhandler";
import { describe, expect, it } from "vitest";
import { isElement } from "../src/extract/dom.ts";
import { htmlHandler } from "../src/extract/html-handler.ts";
import { parseHtml } from "../src/extract/parse-html.ts";
import { parseXml } from "../src/extract/parse-xml.ts";

const md = (html: string): string => htmlHandler.extract({ text: html, url: "https://example.test/a", mime: "text/html" }).content;
const STORY = "<p>The council voted on Tuesday to reopen the old bridge, which had been closed for two years.</p>";
const topNames = (html: string): string[] => {
  const root = parseHtml(html).children.find((node): node is Element => isElement(node) && node.name === "html");
  return (root?.children ?? []).filter(isElement).map((element) => element.name);
};

describe("parsing: where the body starts", () => {
  it("an element that cannot be in <head> ends it and starts the body, as an HTML parser does", () => {
    // A broken attribute swallowed the </head> and the <body> into a script's text.
    const html = `<html><head><title>Bridge</title><script src="x.js" broken">var a;</script><div>${STORY}</div></html>`;
    expect(topNames(html)).toEqual(["head", "body"]);
    expect(md(html)).toContain("The council voted on Tuesday");
  });

  it("content after the head without a <body> tag (one written by script) is the body", () => {
    const html = `<html><head><title>Bridge</title></head><script>document.write("<body>")</script><noscript><body></noscript><div id="container">${STORY}</div></html>`;
    expect(md(html)).toContain("The council voted on Tuesday");
  });

  it("head content and a proper body are left as they are; a fragment stays a fragment", () => {
    expect(topNames(`<html><head><title>t</title><meta charset="utf-8"><noscript><link rel="x"></noscript></head><body>${STORY}</body></html>`)).toEqual([
      "head",
      "body",
    ]);
    expect(parseHtml(STORY).children.filter(isElement).map((element) => element.name)).toEqual(["p"]);
  });

  it("documents pasted one after another (server-side includes) are one body, as a browser shows them", () => {
    const weather = `<html><head><title>Station</title></head><body><div>Temperature: 25°</div></body></html>`;
    const story = `<!DOCTYPE html><html><head><title>Bridge reopens</title></head><body class="story"><h1>Bridge reopens</h1>${STORY}</body></html>`;
    const html = weather + story + "<p>After the last document.</p>";
    expect(topNames(html)).toEqual(["head", "body"]);
    expect(md(html)).toContain("The council voted on Tuesday");
    expect(md(html)).toContain("After the last document.");
  });

  it("a later document's frame tags open and close nothing in any letter case; XML keeps every element it names so", () => {
    const html = `<html><head><title>One</title></head><body><p>First part of the page.</p></BODY></Html><HTML><HEAD><TITLE>Two</TITLE></HEAD><Body class="second"><p>Second part of the page.</p></BODY></HTML>`;
    const frames: string[] = [];
    const visit = (element: Element): void => {
      if (["html", "head", "body"].includes(element.name)) frames.push(element.name);
      element.children.filter(isElement).forEach(visit);
    };
    parseHtml(html).children.filter(isElement).forEach(visit);
    expect(frames).toEqual(["html", "head", "body"]);
    expect(md(html)).toBe("First part of the page.\n\nSecond part of the page.");
    const xml = parseXml("<doc><body>a</body><body>b</body></doc>");
    expect((xml.children[0] as Element).children.filter(isElement).map((element) => element.name)).toEqual(["body", "body"]);
  });

  it("XML is parsed as written", () => {
    const names = parseXml("<head><item>x</item></head>").children.filter(isElement).map((element) => element.name);
    expect(names).toEqual(["head"]);
  });
});

describe("parsing: what the tree holds", () => {
  it("leaves comments out, and the text on either side of one stays two pieces", () => {
    const [paragraph] = parseHtml(`<p>before<!-- a comment --> after<!----></p>`).children.filter(isElement);
    expect(paragraph?.children.map((node) => node.type)).toEqual(["text", "text"]);
    expect(paragraph?.children.map((node) => (node as { data: string }).data)).toEqual(["before", " after"]);
  });

  it("holds only the element's own attributes, whatever their names: __proto__ is kept, constructor absent unless written", () => {
    const [plain, named] = parseHtml(`<p id="a">x</p><p __proto__="kept" constructor="c">y</p>`).children.filter(isElement);
    expect(plain?.attribs.constructor).toBeUndefined();
    expect(Object.keys(named?.attribs ?? {})).toEqual(["__proto__", "constructor"]);
    expect(named?.attribs.constructor).toBe("c");
  });

  it("keeps an attribute's first value when the tag repeats its name, whatever case it is written in", () => {
    const [element] = parseHtml(`<div class="first" CLASS="second" id="" id="later" hidden hidden="x">z</div>`).children.filter(isElement);
    expect(element?.attribs).toEqual({ class: "first", id: "", hidden: "" });
  });

  it("holds the same for elements the parser implies: a body started for a page without one, a <p> for a stray </p>", () => {
    const html = parseHtml(`<html><head><title>t</title></head><div>text</div></p></html>`).children.filter(isElement)[0];
    const body = html?.children.filter(isElement).find((element) => element.name === "body");
    const implied = body?.children.filter(isElement).find((element) => element.name === "p");
    expect(body?.attribs.constructor).toBeUndefined();
    expect(implied?.attribs.constructor).toBeUndefined();
  });
});
