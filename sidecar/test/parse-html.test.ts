import type { AnyNode, Element } from "domhandler";
import { parseDocument } from "htmlparser2";
import { describe, expect, it } from "vitest";
import { isElement } from "../src/extract/dom.ts";
import { MAX_NESTING, parseHtml } from "../src/extract/parse-html.ts";
import { seededRandom } from "./support/seeded-random.ts";

/**
 * A tree as lines: elements with their type and attributes in order, text, directives; comments and empty text
 * (htmlparser2 adds a text node for an empty CDATA section in SVG) left out.
 */
function lines(node: AnyNode, out: string[] = []): string[] {
  if (node.type === "text") {
    if (node.data !== "") out.push(`text ${JSON.stringify(node.data)}`);
  } else if (node.type === "directive") out.push(`directive ${node.name} ${JSON.stringify(node.data)}`);
  else if (isElement(node)) {
    out.push(`<${node.name} ${node.type} ${JSON.stringify(Object.entries(node.attribs))}`);
    for (const child of node.children) lines(child, out);
    out.push(`</${node.name}>`);
  } else if (node.type === "root") for (const child of node.children) lines(child, out);
  return out;
}

/** htmlparser2's own tree for the markup, which ours matches but for the comments it leaves out. */
const stock = (markup: string): string[] => lines(parseDocument(markup));
const ours = (markup: string): string[] => lines(parseHtml(markup));

/**
 * Pieces that change how markup is read: tags of every kind, text-only elements, references, comments and their odd
 * ends, SVG and MathML, tags that close others and tags that cannot be where they are. No document frame (<html>,
 * <head>, <body>): there ours starts the body where htmlparser2 does not (tests in extract-html-parse.test.ts).
 */
const PIECES = [
  "<", ">", "</", "/>", "/", "=", "&", "&amp;", "&lt", "&#x41;", "&#65", "&notit;", "&ampx", "&#xD800;", '"', "'", " ", "\n", "\t", "a", "text ",
  "é", "𝒳", "<p", "<P>", "</p>", "<div class=", "<div>", "</div>", "</DIV >", "<a href='", '<img alt="', "<IMG SRC=x>", "<image>", "</br>",
  "<br/>", "<br>", "<span title=a&amp;b>", "</span>", "<li>", "<ul>", "</ul>", "<table>", "<tr>", "<td>", "</table>", "<h2>", "<form>", "</form>",
  "<select>", "<option>", "<input x y=1>", "<script>", "</script>", "<SCRIPT type=a>", "</script >", "<style>", "</style >", "<title>", "</title>",
  "<textarea>", "</textarea>", "<xmp>", "</xmp>", "<iframe>", "</iframe>", "<noembed>", "</noembed>", "<noframes>", "</noframes>", "<plaintext>",
  "<noscript>", "<!--", "-->", "--!>", "<!-->", "<!--->", "<!->", "<!>", "<!x>", "<!DOCTYPE html>", "<!doctype", "<![CDATA[", "]]>", "<?xml ",
  "?>", "</ x>", "</>", "</1>", "<svg>", "</svg>", "<SVG viewBox='0 0 1 1'>", "<foreignObject>", "</foreignobject>", "<clipPath/>", "<math>",
  "</math>", "<mi>", "</mi>", "<desc>", "<path d=x/>", "<a =b>", "<a b =c d= 'e'f>", "<a/b>", "<a / >",
];

const RCDATA_QUIRK = /<(?:title|textarea)[\s\S]*<\/?[a-z]*&/i;

describe("parseHtml", () => {
  it("builds the tree htmlparser2 builds on a page of many kinds of markup, comments aside", () => {
    const page = `<!DOCTYPE html><div class="post entry" data-json='{"a": "&quot;b&quot;"}'><h1>Title</h1><p>Fish &amp; chips &copy 2024 &#169;
      &#x1F600; a < b<p>Second<ul><li>one<li>two</ul><table><tr><td>a<td>b<tr><td>c</table><script>if (a < b && c > d) { x = "</scr" + "ipt>"; }</script>
      <style>a > b { color: red }</style><title>A &amp; B</title><textarea>x &lt; y</textarea><svg viewBox="0 0 2 2"><clipPath id="c"/><path d="M0"/>
      <foreignObject><p>html again</p></foreignObject><![CDATA[ raw <b> ]]></svg><math><mi>x</mi></math><![CDATA[ gone ]]>
      <a href="/x?a=1&b=2&amp;c=3" title=unquoted&amp;>link</a><!-- a comment with <tags> & ampersands --><form><form><input></form></p></br></div>`;
    expect(ours(page)).toEqual(stock(page));
    expect(ours(page)).toContain(`text "html again"`);
    expect(ours(page)).toContain(`<clipPath tag [["id","c"]]`);
  });

  it("builds the tree htmlparser2 builds on 4,000 random pieces of markup", () => {
    const next = seededRandom(256);
    let compared = 0;
    for (let i = 0; i < 4_000; i++) {
      // Ended by `'">`, which closes any tag or attribute value left open: htmlparser2 cut off inside a tag repeats
      // the markup's last character as text (the test below reads other ends of the markup).
      const markup = `${Array.from({ length: Math.floor(next() * 40) }, () => PIECES[Math.floor(next() * PIECES.length)]).join("")}'">`;
      // In a title or a textarea, htmlparser2 leaves a reference right after `<`, `</` or the start of an end tag's
      // name undecoded; ours decodes it, as browsers do (see the test below).
      if (RCDATA_QUIRK.test(markup)) continue;
      compared++;
      expect(ours(markup), markup).toEqual(stock(markup));
    }
    expect(compared).toBeGreaterThan(3_800);
  });

  it("decodes references in a title or a textarea wherever they stand, as browsers do", () => {
    const [title] = parseHtml("<title>a <&amp; b </&lt;/x</t&gt;</title>").children.filter(isElement);
    expect(title?.children.map((node) => (node as { data: string }).data)).toEqual(["a <& b </</x</t>"]);
  });

  it("reads what runs to the end of the markup as htmlparser2 does: text, a tag, an attribute, a comment, a script", () => {
    for (const markup of ["plain text to the end", "<p>text &amp", '<p>a<a href="never closed', "<p>b<a title='never &amp; closed", "<p>c<!-- never closed", "x<!", "y</", "z<", "<p>d<script>var a = 1 < 2", "<p>e<style>p{}</st", "<textarea>t &amp; u"]) {
      expect(ours(markup), markup).toEqual(stock(markup));
      expect(ours(markup).length, markup).toBeGreaterThan(0);
    }
  });

  it("folds elements nested deeper than the cap into the deepest open one, in time linear in the markup", () => {
    const depth = (node: Element): number => 1 + Math.max(0, ...node.children.filter(isElement).map(depth));
    const deep = parseHtml(`${"<div>".repeat(100_000)}deep text${"</div>".repeat(100_000)}<p>after</p>`);
    const [outer, after] = deep.children.filter(isElement);
    expect(depth(outer as Element)).toBe(MAX_NESTING);
    expect(after?.name).toBe("p");
    // End tags that match nothing search a stack no deeper than the cap; unclosed scripts and comments end the markup once.
    const hostile = parseHtml(`${"<div>".repeat(300)}${"</span>".repeat(100_000)}x${"<script>".repeat(3)}${"</scrip".repeat(50_000)}`);
    expect(hostile.children.length).toBe(1);
  });
});

describe("parseHtml: declarative shadow roots", () => {
  /** The rendered tree as markup: elements with their names, text as it is. */
  const shown = (node: AnyNode): string =>
    node.type === "text" ? (node.data as string) : isElement(node) ? `<${node.name}>${node.children.map(shown).join("")}</${node.name}>` : "";
  const body = (markup: string): string => shown(parseHtml(`<body>${markup}</body>`).children[0] as Element);

  it("shows a host's shadow tree with its children in the slots they name, the rest of them in the default slot", () => {
    const markup =
      '<my-card><template shadowrootmode="open"><h2><slot name="title">No title</slot></h2><p><slot>No text</slot></p><footer><slot name="note">No note</slot></footer></template>' +
      'Lead <span slot="title">Title</span><b>bold</b><i slot="nowhere">dropped</i><span slot="title">Second title</span></my-card>';
    expect(body(markup)).toBe("<body><my-card><h2><span>Title</span><span>Second title</span></h2><p>Lead <b>bold</b></p><footer>No note</footer></my-card></body>");
  });

  it("reads both modes in any case; any other mode, a second template or a host that cannot have one keeps the template as a template", () => {
    expect(body('<div><template shadowrootmode="CLOSED"><p>Shadow</p></template>Light</div>')).toBe("<body><div><p>Shadow</p></div></body>");
    expect(body('<div><template shadowrootmode="none"><p>Shadow</p></template>Light</div>')).toBe("<body><div><template><p>Shadow</p></template>Light</div></body>");
    expect(body('<x-a><template shadowrootmode="open">One</template><template shadowrootmode="open">Two</template></x-a>')).toBe("<body><x-a>One</x-a></body>");
    expect(body('<ul><template shadowrootmode="open">Shadow</template><li>Light</li></ul>')).toBe("<body><ul><template>Shadow</template><li>Light</li></ul></body>");
    expect(body('<font-face><template shadowrootmode="open">Shadow</template>Light</font-face>')).toBe("<body><font-face><template>Shadow</template>Light</font-face></body>");
    // In SVG a custom element's <template> is SVG's, no shadow root.
    expect(body('<svg><x-a><template shadowrootmode="open">Shadow</template>Light</x-a></svg>')).toBe("<body><svg><x-a><template>Shadow</template>Light</x-a></svg></body>");
  });

  it("fills a slot inside another's fallback, and slots of a nested shadow root with what is assigned to them", () => {
    const fallback = '<x-a><template shadowrootmode="open"><slot name="outer">[<slot name="inner"></slot>]</slot></template><b slot="inner">in</b></x-a>';
    expect(body(fallback)).toBe("<body><x-a>[<b>in</b>]</x-a></body>");
    const nested =
      '<x-outer><template shadowrootmode="open"><x-inner><template shadowrootmode="open"><em><slot></slot></em></template><slot></slot>!</x-inner></template>text</x-outer>';
    expect(body(nested)).toBe("<body><x-outer><x-inner><em>text!</em></x-inner></x-outer></body>");
  });

  it("keeps the tree within the nesting cap when slots move a host's children deeper", () => {
    const depth = (node: Element): number => 1 + Math.max(0, ...node.children.filter(isElement).map(depth));
    const markup = `<x-a><template shadowrootmode="open">${"<div>".repeat(200)}<slot></slot>${"</div>".repeat(200)}</template>${"<p>".repeat(1)}${"<span>".repeat(200)}deep${"</span>".repeat(200)}</x-a>`;
    const document = parseHtml(markup);
    expect(depth(document.children[0] as Element)).toBe(MAX_NESTING);
    expect(shown(document.children[0] as Element)).toContain("deep");
  });

  it("fills 100,000 slots in one parent in time linear in them", () => {
    expect(body(`<x-a><template shadowrootmode="open">${'<slot name="n"></slot>'.repeat(100_000)}<slot></slot></template>light</x-a>`)).toBe("<body><x-a>light</x-a></body>");
  });
});
