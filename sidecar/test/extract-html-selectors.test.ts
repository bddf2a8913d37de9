import { describe, expect, it } from "vitest";
import { extractContent } from "../src/extract/extract-content.ts";
import { MAX_SELECTOR_STEPS } from "../src/extract/html/apply-selectors.ts";

const URL = "https://example.test/page";
const html = (body: string) => `<!doctype html><html lang="en"><head><title>Selectors page</title></head><body>${body}</body></html>`;
const read = (text: string, selectors: { include?: string[]; exclude?: string[] }) => extractContent("html", { text, url: URL, mime: "text/html", selectors });

const PROSE = "This paragraph is long enough to count as the article's prose, with commas, clauses and a full stop at the end.";
const ARTICLE_PAGE = html(`<nav><a href="/">Home</a> <a href="/docs">Docs</a></nav>
<main><article><h1>The main article</h1><p>${PROSE}</p><p class="promo">Subscribe to our newsletter for weekly updates on the article's topic.</p><p>${PROSE} Second.</p></article></main>
<aside class="sidebar"><h2>Opening hours</h2><p>Monday to Friday, nine to five.</p></aside>
<div class="cookie-banner"><p>We use cookies to make this site work, and you can choose which ones below.</p></div>`);

describe("includeSelectors: only the matched elements, instead of main-content detection", () => {
  it("reads the matched elements in document order, a match inside another match once", () => {
    const page = html(`<div class="a"><p>A one.</p><p class="b">B inside A.</p></div><p class="b">B two.</p><div class="a"><p>A two.</p></div><p>Not matched.</p>`);
    const out = read(page, { include: [".b", ".a"] });
    expect(out.content).toBe("A one.\n\nB inside A.\n\nB two.\n\nA two.");
    expect(out.metadata).toMatchObject({ extraction: "selectors" });
    expect(out.title).toBe("Selectors page");
    expect(out.parseWarning).toBeUndefined();
  });

  it("reads what main-content detection leaves out when a selector names it", () => {
    expect(read(ARTICLE_PAGE, {}).content).not.toContain("Opening hours");
    const out = read(ARTICLE_PAGE, { include: ["aside.sidebar", "nav"] });
    expect(out.content).toBe("[Home](https://example.test/) [Docs](https://example.test/docs)\n\n## Opening hours\n\nMonday to Friday, nine to five.");
  });

  it("leaves out hidden elements inside a match", () => {
    const out = read(html(`<section id="s"><p>Shown text.</p><p hidden>Hidden text.</p><div style="display:none">Also hidden.</div><script>var x = 1;</script></section>`), { include: ["#s"] });
    expect(out.content).toBe("Shown text.");
  });

  it("names a selector that matched nothing; when none matched, the main content is read and the warning says so", () => {
    const some = read(ARTICLE_PAGE, { include: ["aside.sidebar", "#missing"] });
    expect(some.content).toContain("Opening hours");
    expect(some.parseWarning).toBe('includeSelectors: "#missing" matched nothing on this page');
    const none = read(ARTICLE_PAGE, { include: ["#missing", ".gone"] });
    expect(none.content).toBe(read(ARTICLE_PAGE, {}).content);
    expect(none.metadata?.extraction).toBeUndefined();
    expect(none.parseWarning).toBe('includeSelectors: "#missing", ".gone" matched nothing on this page; its main content is shown instead');
  });

  it("stops a selector that would read a long page's elements once for each of them, says so and applies the others", () => {
    const paragraphs = Array.from({ length: 30_000 }, (_, n) => `<p class="p${n % 7}">Paragraph ${n}.</p>`).join("");
    const out = read(html(`<article>${paragraphs}<q>end</q></article>`), { include: ["p:has(~ q)", "p.p6"] });
    expect(out.parseWarning).toBe(
      `includeSelectors: "p:has(~ q)" could not be applied (it would read this page's elements more than ${(MAX_SELECTOR_STEPS / 2).toLocaleString("en")} times, its share of the call's selectors; :has(), sibling combinators and :nth-… over long lists cost most)`,
    );
    expect(out.content.split("\n\n")).toHaveLength(Math.ceil((30_000 - 6) / 7));
    expect(out.content.startsWith("Paragraph 6.\n\nParagraph 13.")).toBe(true);
  });

  it("counts the text a selector reads node by node: :contains() over every level of a deep page is stopped too", () => {
    const paragraphs = Array.from({ length: 30_000 }, (_, n) => `<p>Paragraph ${n}.</p>`).join("");
    const out = read(html(`${"<div>".repeat(250)}${paragraphs}`), { include: ["div:contains(Paragraph 29999)", "p:first-child"] });
    expect(out.parseWarning).toBe(
      `includeSelectors: "div:contains(Paragraph 29999)" could not be applied (it would read this page's elements more than ${(MAX_SELECTOR_STEPS / 2).toLocaleString("en")} times, its share of the call's selectors; :has(), sibling combinators and :nth-… over long lists cost most)`,
    );
    expect(out.content).toBe("Paragraph 0.");
  });

  it("says which selector the page's reader cannot apply, and applies the others", () => {
    const out = read(ARTICLE_PAGE, { include: ["aside.sidebar", "p::first-line"] });
    expect(out.content).toContain("Opening hours");
    expect(out.parseWarning).toMatch(/^includeSelectors: "p::first-line" could not be applied \(.+\)$/);
  });
});

describe("excludeSelectors: removed before anything else", () => {
  it("removes the matched elements from the main content", () => {
    const before = read(ARTICLE_PAGE, {});
    expect(before.content).toContain("Subscribe to our newsletter");
    const out = read(ARTICLE_PAGE, { exclude: [".promo", ".cookie-banner"] });
    expect(out.content).not.toContain("Subscribe to our newsletter");
    expect(out.content).toContain(PROSE);
    expect(out.parseWarning).toBeUndefined();
  });

  it("is applied before main-content detection, which then chooses among what is left", () => {
    const page = html(`<main><article class="long"><p>${PROSE} One.</p><p>${PROSE} Two.</p><p>${PROSE} Three.</p></article>
<article class="short"><p>The shorter article says something else entirely, at some length, so that it reads as prose too.</p></article></main>`);
    expect(read(page, {}).content).toContain("Three.");
    const out = read(page, { exclude: ["article.long"] });
    expect(out.content).toBe("The shorter article says something else entirely, at some length, so that it reads as prose too.");
  });

  it("takes out as many siblings as it matches in time linear in them, the rest linked in order", () => {
    const paragraphs = Array.from({ length: 150_000 }, (_, n) => `Paragraph ${n}.`);
    const out = read(html(`<article>${paragraphs.map((text) => `<p>${text}</p><p class="ad">Advertisement</p>`).join("")}</article>`), { include: ["article"], exclude: [".ad"] });
    expect(out.content).toBe(paragraphs.join("\n\n"));
  });

  it("is applied before includeSelectors, and names a selector that matched nothing", () => {
    const out = read(ARTICLE_PAGE, { include: ["article"], exclude: [".promo", ".nothing-here"] });
    expect(out.content).toBe(`# The main article\n\n${PROSE}\n\n${PROSE} Second.`);
    expect(out.parseWarning).toBe('excludeSelectors: ".nothing-here" matched nothing on this page');
  });
});

describe("selectors on pages that are not HTML", () => {
  it("reads the page whole and says the selectors apply to HTML only", () => {
    const out = extractContent("json", { text: '{"a":1}', url: URL, mime: "application/json", selectors: { include: ["#content"] } });
    expect(out.content).toContain('"a": 1');
    expect(out.parseWarning).toBe("includeSelectors and excludeSelectors apply to HTML pages; this page (JSON) was read whole");
  });
});
