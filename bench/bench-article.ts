const WORDS = (
  "agents read pages through the stack while a sidecar vets fetches and extracts each one so that what reaches " +
  "the model is clean text with links headings and lists kept in order every request passes one policy before " +
  "any byte leaves the machine and answers come back as markdown that a reader can follow without the noise of " +
  "menus banners scripts or styles around the article itself"
).split(" ");

/**
 * An article of about `bytes` bytes of HTML whose paragraphs all differ (sections with headings,
 * links and emphasis), so extraction keeps nearly all of its text, as it would a real article's:
 * a page of one repeated paragraph is folded to a line, and would measure an answer of ~100 characters.
 */
export function benchArticle(bytes: number, title: string): string {
  let seed = 7;
  const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648);
  const sentence = () => {
    const words = Array.from({ length: 10 + (next() % 9) }, () => WORDS[next() % WORDS.length]!);
    return `${words[0]![0]!.toUpperCase()}${words.join(" ").slice(1)}.`;
  };
  const head = `<!doctype html><html><head><title>${title}</title></head><body><nav><a href="/">Home</a> <a href="/about">About</a></nav><main><article><h1>${title}</h1>`;
  const tail = `</article></main><footer><p>Footer</p></footer></body></html>`;
  const parts: string[] = [];
  let size = head.length + tail.length;
  for (let p = 0; size < bytes; p++) {
    const heading = p % 5 === 0 ? `<h2>Part ${p / 5 + 1}: ${sentence().slice(0, -1)}</h2>` : "";
    const paragraph = `${heading}<p>${sentence()} <em>${sentence()}</em> ${sentence()} See <a href="/notes/${p}">note ${p}</a>. ${sentence()}</p>`;
    parts.push(paragraph);
    size += paragraph.length;
  }
  return head + parts.join("\n") + tail;
}
