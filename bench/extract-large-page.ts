/**
 * A page of about `bytes` bytes built like a real article page (navigation, a long body of paragraphs,
 * lists, tables and links, a sidebar, comments), for showing that memory per page stays bounded.
 */
export function largePage(bytes: number): string {
  const section = (i: number): string =>
    `<h2>Section ${i}</h2>` +
    `<p>Paragraph ${i} of the article, with <a href="/ref/${i}">a reference</a>, <em>emphasis</em> and enough words, commas, and sentences to read as prose. It goes on a little longer, so the block has weight.</p>` +
    `<ul><li>Point ${i}.1 with <code>code</code></li><li>Point ${i}.2<ul><li>nested</li></ul></li></ul>` +
    `<table><tr><th>k</th><th>v</th></tr><tr><td>${i}</td><td>value ${i}</td></tr></table>` +
    `<div class="related"><a href="/r/${i}">Related ${i}</a> <a href="/s/${i}">Share</a></div>`;
  const head = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Large page</title></head><body>` +
    `<nav>${Array.from({ length: 30 }, (_, i) => `<a href="/n/${i}">Nav ${i}</a>`).join(" ")}</nav><main><article><h1>Large page</h1>`;
  const tail = `</article></main><aside class="sidebar"><p>Sidebar</p></aside><div id="comments"><p>Comment</p></div></body></html>`;
  const parts = [head];
  let size = head.length + tail.length;
  for (let i = 0; size < bytes; i++) {
    const next = section(i);
    parts.push(next);
    size += next.length;
  }
  parts.push(tail);
  return parts.join("");
}
