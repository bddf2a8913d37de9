import { describe, expect, it } from "vitest";
import { failSafe } from "../src/extract/html/fail-safe.ts";
import { extractHtmlPage } from "../src/extract/html-handler.ts";
import { htmlToMarkdown } from "../src/extract/html/markdown.ts";
import { parseHtml } from "../src/extract/parse-html.ts";

const extract = (html: string) => extractHtmlPage({ text: html, url: "https://example.test/story", mime: "text/html" });
const sentence = (topic: string, i: number): string =>
  `The ${topic} committee met again on day ${i}, and its members, who had argued for weeks, agreed on a plan for the town.`;
const paragraphs = (topic: string, count: number): string =>
  Array.from({ length: count }, (_, i) => `<p>${sentence(topic, i)}</p>`).join("");

describe("html: the main result is checked against the page", () => {
  it("a page whose prose the main method throws away is read by the second method, never shown empty", () => {
    // Each third of the text sits under a name that reads as furniture; none holds most of the page, so all are dropped.
    const html = `<html><head><title>Budget</title></head><body><div class="share-box">${paragraphs("budget", 3)}</div><div class="share-box">${paragraphs("budget", 3)}</div><div class="share-box">${paragraphs("budget", 3)}</div></body></html>`;
    const { result, fallback } = extract(html);
    expect(fallback).toBe("chosen");
    expect(result.content).toContain(sentence("budget", 0));
    expect(result.metadata?.extraction).toBeUndefined();
  });

  it("a short article after its headline beats a longer thread of comments below it", () => {
    const comments = Array.from(
      { length: 10 },
      (_, i) => `<p>${sentence("reader", i)} I think so too, really.</p><p><a href="/u/${i}">user${i}</a></p>`,
    ).join("");
    const others = Array.from({ length: 5 }, (_, i) => `<div><a href="/a/${i}">Other recent article number ${i}</a></div>`).join("");
    const html = `<html><head><title>Site - Bridge reopens after two years</title></head><body><table><tr><td><b>Bridge reopens after two years</b></td></tr><tr><td class="story">${paragraphs("bridge", 8)}</td></tr></table><div>${others}</div><div>${comments}</div></body></html>`;
    const { result, fallback } = extract(html);
    expect(fallback).toBe("chosen");
    expect(result.content).toContain(sentence("bridge", 0));
    expect(result.content).toContain(sentence("bridge", 7));
    expect(result.content).not.toContain("user3");
    expect(result.content).not.toContain(sentence("reader", 5));
  });

  it("a one-paragraph post under its headline beats a longer box elsewhere; a standfirst alone does not count as the post", () => {
    const post = [1, 2, 3, 4, 5].map((i) => sentence("harbour", i)).join(" ");
    const box = `<div class="issue"><h4>In the new issue</h4><p>${[1, 2, 3, 4, 5].map((i) => `Interviews, essays, portraits, reviews, ${sentence("magazine", i)}`).join(" ")}</p></div>`;
    const menu = Array.from({ length: 8 }, (_, i) => `<li><a href="/section/${i}">Section of the magazine ${i}</a></li>`).join("");
    const page = (below: string) =>
      `<html><head><title>Site | Harbour plan agreed</title></head><body>${box}<ul>${menu}</ul><article><header><h1>Harbour plan agreed</h1><p>Published today</p></header>${below}</article></body></html>`;
    const { result, fallback } = extract(page(`<p>${post}</p>`));
    expect(fallback).toBe("chosen");
    expect(result.content).toContain(sentence("harbour", 4));
    expect(result.content).not.toContain(sentence("magazine", 1));
    // A line of standfirst under the headline is not the post: the box stays the main result.
    expect(extract(page(`<p>${sentence("harbour", 1)}</p>`)).result.content).toContain(sentence("magazine", 1));
  });

  it("in place of the whole page, the text right after a headline that repeats the title is the post, however short beside the boxes", () => {
    const box = (title: string, n: number) =>
      `<div class="box"><h3>${title}</h3><ul>${Array.from({ length: n }, (_, i) => `<li><a href="/${title}/${i}">${title} entry number ${i}</a></li>`).join("")}</ul></div>`;
    const line = "Heroes at home on a day off, drawn by a friend of the blog who draws every weekend in the park. Lovely work, really.";
    const page = (title: string) => `<html><head><title>${title} « The Brain</title></head><body><div id="head"><a href="/">The Brain</a></div>
      <div id="main"><h2>Casual superheroes</h2><p class="date">October 3, 2012</p><img src="/heroes.jpg" alt="Heroes at home"><p>${line}</p></div>
      <div id="side">${box("Archives", 12)}${box("Categories", 10)}<p>All pictures belong to their makers, who are credited under each post, and are shown here with thanks.</p></div>
      <div id="foot"><p>The Brain is a blog about drawings, videos and other things that made its writer smile this week.</p></div></body></html>`;
    const { result, fallback } = extract(page("Casual superheroes"));
    expect(fallback).toBe("chosen");
    expect(result.content).toBe(line);
    // Without a headline that repeats the title there is no post to anchor on: the page stays whole.
    const other = extract(page("Drawings of the week"));
    expect(other.result.metadata?.extraction).toBe("whole-page");
    expect(other.result.content).toContain("Archives entry number 3");
  });

  it("in place of the whole page, a stretch holding most of the page's text is taken; a page of links stays whole", () => {
    const links = Array.from({ length: 12 }, (_, i) => `<p><a href="/s/${i}">Another story on the front page, number ${i}</a></p>`).join("");
    const render = ({ nodes, skip }: { nodes: readonly import("domhandler").ChildNode[]; skip: ReadonlySet<import("domhandler").Element> }) =>
      htmlToMarkdown(nodes, { baseUrl: "https://example.test/", skip: (element) => skip.has(element) });
    const whole = (html: string) => {
      const body = parseHtml(html);
      const markdown = render({ nodes: body.children, skip: new Set() });
      return { markdown, checked: failSafe(body, undefined, [], { markdown, visibleChars: markdown.length }, render) };
    };
    const article = whole(`${links}${links}<div>${paragraphs("bridge", 6)}</div>`);
    expect(article.checked.use).toBe("chosen");
    expect(article.checked.markdown).toContain(sentence("bridge", 5));
    expect(article.checked.markdown).not.toContain("front page, number 3");
    const listing = whole(`${links}${links}${links}<p>This site uses cookies; by reading on you agree that it may store them on your computer.</p>`);
    expect(listing.checked.markdown).toBe(listing.markdown);
  });

  it("a clear article is kept without running the second method", () => {
    const html = `<html><head><title>Bridge</title></head><body><nav><a href="/">Home</a></nav><article><h1>Bridge</h1>${paragraphs("bridge", 6)}</article></body></html>`;
    const { result, fallback } = extract(html);
    expect(fallback).toBe("not-run");
    expect(result.content).toContain(sentence("bridge", 5));
  });
});

describe("html: widening stops at listings", () => {
  it("teasers (a linked headline and its summary) after the article are not taken as more of its text", () => {
    const teasers = Array.from(
      { length: 6 },
      (_, i) => `<dt><a href="/news/${i}">Another story headline number ${i} today</a></dt><dd>${sentence("teaser", i)}</dd>`,
    ).join("");
    const html = `<html><head><title>Bridge</title></head><body><div><div>${paragraphs("bridge", 5)}</div><h3>More headlines</h3><dl>${teasers}</dl></div></body></html>`;
    const { content } = extract(html).result;
    expect(content).toContain(sentence("bridge", 4));
    expect(content).not.toContain(sentence("teaser", 2));
  });
});

describe("html: teasers are not the page's prose", () => {
  it("summaries under linked headlines, more text than the article, do not make the page a listing", () => {
    const lineup = (section: string) =>
      `<div><h3>${section} headlines</h3><dl>${Array.from(
        { length: 5 },
        (_, i) => `<dt><a href="/${section}/${i}">A ${section} story with a headline number ${i}</a></dt><dd>${sentence(section, i)}</dd>`,
      ).join("")}</dl></div>`;
    const html = `<html><head><title>Bridge</title></head><body><div id="page"><div class="story"><div>${paragraphs("bridge", 6)}</div></div><div class="right">${lineup("city")}${lineup("world")}</div></div></body></html>`;
    const { content } = extract(html).result;
    expect(content).toContain(sentence("bridge", 5));
    expect(content).not.toContain(sentence("city", 1));
    expect(content).not.toContain(sentence("world", 1));
  });

  it("a block opening with a headline's link on a line of its own is a teaser, its summary no prose of the page", () => {
    const related = Array.from(
      { length: 6 },
      (_, i) => `<li><img src="/thumb/${i}.jpg" alt=""><a href="/related/${i}">A related story with a headline number ${i}</a><br>${sentence("related", i)} ${sentence("summary", i)} [...]</li>`,
    ).join("");
    const html = `<html><head><title>Bridge</title></head><body><div id="page"><div id="story"><p><a href="/council">The city council</a> voted on the bridge last night, after a long debate and a public hearing.</p>${paragraphs("bridge", 4)}</div><div class="box"><div>Related posts</div><ul>${related}</ul></div></div></body></html>`;
    const { content } = extract(html).result;
    expect(content).toContain("voted on the bridge last night");
    expect(content).toContain(sentence("bridge", 3));
    expect(content).not.toContain(sentence("related", 2));
  });

  it("entries opening with a short linked label on a line of its own (a live blog's times) stay the page's prose", () => {
    const entries = Array.from({ length: 6 }, (_, i) => `<p><a href="#entry-${i}">10:4${i}</a><br>${sentence("bridge", i)}</p>`).join("");
    const html = `<html><head><title>Bridge</title></head><body><div id="page"><div id="live">${entries}</div><div class="box"><p>${sentence("about", 1)}</p><p>${sentence("about", 2)}</p></div></div></body></html>`;
    const { content } = extract(html).result;
    expect(content).toContain(sentence("bridge", 0));
    expect(content).toContain(sentence("bridge", 5));
  });
});

describe("html: calls to action inside the article", () => {
  it("a short line all in bold and links is pruned; a sentence with a link, or bold without one, stays", () => {
    const html = `<html><head><title>Bridge</title></head><body><article>${paragraphs("bridge", 5)}<p>The plan, as <a href="/plan">the full text</a> shows, runs to forty pages.</p><p><strong>Nothing was decided about the tolls.</strong></p><p><em><strong>Send us your letter through <a href="/letters">this form</a>.</strong></em></p></article></body></html>`;
    const { content } = extract(html).result;
    expect(content).toContain("runs to forty pages");
    expect(content).toContain("Nothing was decided about the tolls.");
    expect(content).not.toContain("Send us your letter");
  });

  it("a small box with a button in it is a prompt, left out", () => {
    const html = `<html><head><title>Bridge</title></head><body><article>${paragraphs("bridge", 5)}<div><p>We have reported on this town for a hundred years, and we need readers like you.</p><a class="join-button" href="/join">Become a member now</a></div></article></body></html>`;
    const { content } = extract(html).result;
    expect(content).toContain(sentence("bridge", 4));
    expect(content).not.toContain("Become a member");
    expect(content).not.toContain("a hundred years");
  });
});
