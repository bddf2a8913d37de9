import { extractHtmlPage } from "../sidecar/src/extract/html-handler.ts";
let seed = 12345;
const rnd = (n: number) => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed % n; };
const frags = [
  (i: string) => `<div class="admonition note"><p class="admonition-title">Note</p>${i}</div>`,
  (i: string) => `<div class="callout">${i}</div>`,
  (i: string) => `<div class="markdown-alert"><p class="markdown-alert-title">Warning</p>${i}</div>`,
  (i: string) => `<pre><span class="ln">1</span>a\n<span class="ln">2</span>${i}</pre>`,
  (i: string) => `<pre><span>${rnd(3)}</span>${i}\n<span>2</span>x</pre>`,
  (i: string) => `<table><tr><td rowspan="${rnd(5)}">a</td><td colspan="${rnd(4)}">${i}</td></tr><tr><td rowspan="${rnd(70000)}">b</td></tr><tr></tr></table>`,
  (i: string) => `<table><tr><td data-line-number="${rnd(3)}"></td><td>${i}</td></tr><tr><td data-line-number="2">2</td><td>y</td></tr></table>`,
  (i: string) => `<span class="MathJax_Preview">p</span><span class="MathJax" id="MathJax-Element-1-Frame">${i}</span><script type="math/tex${rnd(2) ? "; mode=display" : ""}">x^${rnd(9)}</script>`,
  (i: string) => `<p>e <img alt="😀" src="e.png"> ${i}</p>`,
  (i: string) => `<div class="comment"><h3><a href="/u">u</a> commented <a href="#c1">Jan 2, 2024</a></h3><p>${i}</p></div>`,
  (i: string) => `<div>${i}</div>`,
  (i: string) => `<blockquote>${i}</blockquote>`,
  (i: string) => `<dl><dt><em>a</em> ${i}</dt><dd>d</dd></dl>`,
  (i: string) => `<p>Some words, a sentence or two, with commas. ${i}</p>`,
  (i: string) => `<math><annotation encoding="application/x-tex">${i}</annotation></math>`,
];
const build = (depth: number): string => (depth === 0 || rnd(4) === 0 ? "text" : Array.from({ length: 1 + rnd(3) }, () => frags[rnd(frags.length)]!(build(depth - 1))).join(""));
let worst = 0;
for (let k = 0; k < 3000; k++) {
  const html = `<html><body><article><h1>T</h1>${build(6)}</article></body></html>`;
  const t = performance.now();
  try { extractHtmlPage({ text: html, url: "https://example.com/x", mime: "text/html" }); } catch (e) { console.log("THROW", k, e); process.exit(1); }
  worst = Math.max(worst, performance.now() - t);
}
console.log("ok, slowest", worst.toFixed(1), "ms");
