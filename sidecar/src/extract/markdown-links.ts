/**
 * Inline links and images in Markdown the renderer wrote: `[label](target "title")`, `![alt](target)`. A target
 * holds no spaces and parentheses only in balanced pairs one deep; a label or title ends at its first unescaped
 * bracket or quote, and a backslash escapes any character but a line break.
 *
 * Read by hand rather than by a pattern, in time linear in the text: a pattern tries every "[" as a label's start
 * and reads on to the label's end from each, so a paragraph of escaped brackets (`\[\[\[…`) is read once per
 * bracket (a megabyte of them took minutes). Here the starts up to where a label's reading stopped share that stop,
 * so when the first of them fails they all do, and the reading goes on after it.
 */

const SPACE = /\s/;
const LINE_TERMINATORS = new Set(["\n", "\r", "\u2028", "\u2029"]);

/**
 * Where reading a label or title from `start` stops: at its `close`, or where it fails (a backslash before a line
 * break or at the end, the text's end). Every start before that point that reads on to it stops there too.
 */
function readTo(text: string, start: number, close: string): number {
  let at = start;
  while (at < text.length) {
    const char = text.charAt(at);
    if (char === close) return at;
    if (char === "\\") {
      if (at + 1 >= text.length || LINE_TERMINATORS.has(text.charAt(at + 1))) return at;
      at += 2;
    } else at++;
  }
  return text.length;
}

/** Where `(target "title")` starting at `start` ends (after its ")"), or -1 when none starts there. */
function destinationEnd(text: string, start: number): number {
  if (text.charAt(start) !== "(") return -1;
  let at = start + 1;
  while (at < text.length) {
    const char = text.charAt(at);
    if (char === "(") {
      let inner = at + 1;
      while (inner < text.length && text.charAt(inner) !== "(" && text.charAt(inner) !== ")") inner++;
      if (text.charAt(inner) !== ")") return -1;
      at = inner + 1;
    } else if (char === ")" || SPACE.test(char)) break;
    else at++;
  }
  if (text.charAt(at) === ")") return at + 1;
  while (at < text.length && SPACE.test(text.charAt(at))) at++;
  if (at === start + 1 || text.charAt(at) !== '"') return -1;
  const quote = readTo(text, at + 1, '"');
  return text.charAt(quote) === '"' && text.charAt(quote + 1) === ")" ? quote + 2 : -1;
}

/**
 * The text with each inline image (`kind` "image") or link ("link") replaced by what `replace` makes of its label,
 * as `text.replace` with a global pattern would: matches do not overlap, and the reading goes on after each.
 */
export function replaceMarkdownLinks(text: string, kind: "image" | "link", replace: (label: string) => string): string {
  const opener = kind === "image" ? "![" : "[";
  const out: string[] = [];
  let written = 0;
  let from = 0;
  for (let start = text.indexOf(opener, from); start !== -1; start = text.indexOf(opener, from)) {
    const labelStart = start + opener.length;
    const labelEnd = readTo(text, labelStart, "]");
    const end = text.charAt(labelEnd) === "]" ? destinationEnd(text, labelEnd + 1) : -1;
    if (end === -1) {
      from = labelEnd + 1;
      continue;
    }
    out.push(text.slice(written, start), replace(text.slice(labelStart, labelEnd)));
    written = from = end;
  }
  out.push(text.slice(written));
  return out.join("");
}
