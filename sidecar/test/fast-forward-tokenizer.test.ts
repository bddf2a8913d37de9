import { type Handler, Parser, type ParserOptions } from "htmlparser2";
import { describe, expect, it } from "vitest";
import { FastForwardTokenizer } from "../src/extract/fast-forward-tokenizer.ts";
import { seededRandom } from "./support/seeded-random.ts";

/** Every event the parser reports, in order, with its arguments (but the parser itself, given at its start). */
function events(markup: string | string[], options: ParserOptions): unknown[][] {
  const seen: unknown[][] = [];
  const record = new Proxy({} as Partial<Handler>, {
    get: (_target, name) => (typeof name === "string" && name.startsWith("on") && name !== "onparserinit" ? (...args: unknown[]) => seen.push([name, ...args]) : undefined),
  });
  const parser = new Parser(record, options);
  for (const chunk of typeof markup === "string" ? [markup] : markup) parser.write(chunk);
  parser.end();
  return seen;
}

const bothWays = (markup: string | string[], options: ParserOptions = {}) => ({
  ours: events(markup, { ...options, Tokenizer: FastForwardTokenizer }),
  stock: events(markup, options),
});

/** Pieces that change the tokenizer's state, and filler that does not. */
const PIECES = [
  "<", ">", "</", "/>", "&", "&amp;", "&lt", "&#x41;", "&#65", "&notit;", "&ampx", '"', "'", "=", " ", "\n", "a", "text ", "é", "𝒳",
  "<p", "<div class=", "<a href='", '<img alt="', "<script>", "</script>", "<style>", "</style >", "<title>", "</title>", "<textarea>",
  "</textarea>", "<!--", "-->", "<!DOCTYPE html>", "<![CDATA[", "]]>", "<?xml ", "?>", "<br>", "<noscript>", "<xmp>", "<plaintext>",
];

describe("FastForwardTokenizer", () => {
  it("reports what htmlparser2's own tokenizer reports on markup whose text, attributes and scripts it skips through", () => {
    const page = `<!DOCTYPE html><html><head><title>A &amp; B</title><style>a > b { color: red }</style>
      <script>if (a < b && c > d) { x = "</scr" + "ipt>"; }</script></head>
      <body class="post entry" data-json='{"a": "&quot;b&quot;"}'><p>Fish &amp; chips &copy 2024 &#169; &#x1F600; a < b</p>
      <a href="/x?a=1&b=2&amp;c=3" title=unquoted&amp;>link</a><!-- a comment with <tags> & ampersands --></body></html>`;
    const { ours, stock } = bothWays(page);
    expect(ours).toEqual(stock);
    const text = ours.filter(([name]) => name === "ontext").map(([, data]) => data).join("");
    expect(text).toContain("Fish & chips © 2024 © 😀 a < b");
    expect(ours).toContainEqual(["onattribute", "href", "/x?a=1&b=2&c=3", '"']);
  });

  it("reports the same on 3,000 random pieces of markup, in HTML and XML, decoding entities or not, written whole or in parts", () => {
    const next = seededRandom(48);
    for (let i = 0; i < 3_000; i++) {
      const markup = Array.from({ length: Math.floor(next() * 40) }, () => PIECES[Math.floor(next() * PIECES.length)]).join("");
      const cut = Math.floor(next() * (markup.length + 1));
      const input = i % 3 === 0 ? [markup.slice(0, cut), markup.slice(cut)] : markup;
      const options: ParserOptions = { xmlMode: i % 4 === 1, decodeEntities: i % 5 !== 2 };
      const { ours, stock } = bothWays(input, options);
      expect(ours, JSON.stringify({ input, options })).toEqual(stock);
    }
  });

  it("ends text, an attribute value and a script that run to the end of the markup as the stock one does", () => {
    for (const markup of ["plain text to the end", "<p>text &amp", '<a href="never closed', "<a title='never closed &amp; still", "<script>var a = 1 < 2", "<style>p{}"]) {
      const { ours, stock } = bothWays(markup);
      expect(ours, markup).toEqual(stock);
      expect(ours.length, markup).toBeGreaterThan(1);
    }
  });

  it("finds the stops anew in a part written after one with the same text, whose stops were sought further on", () => {
    const part = `xx<p title="a">yy & zz`;
    const { ours, stock } = bothWays([part, part, part]);
    expect(ours).toEqual(stock);
    expect(ours.filter(([name]) => name === "onopentagname")).toHaveLength(3);
  });
});
