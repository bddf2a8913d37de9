import { oneLine } from "./whitespace.ts";

/** Writing plain text and code into Markdown without it turning into unintended syntax. */

const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;
const WORD_CHAR = /[\p{L}\p{N}]/u;
const TAG_START = /[A-Za-z/!?]/;
const ENTITY = /^&(?:#\d{1,7}|#x[\da-f]{1,6}|[a-z][a-z\d]{1,31});/i;

/** Stands before a character whose escape may turn out needless; settleEscapes decides once the text around it is known. */
const MAYBE = "\ufdd6";
const MAYBE_ESCAPES = /\ufdd6(.)/gs;

function escapeWith(text: string, lazy: boolean): string {
  return text.replace(/[\\`*_[\]<&]/g, (ch: string, offset: number) => {
    const next = text.charAt(offset + 1);
    switch (ch) {
      case "\\":
        // Before punctuation it would escape it; at the end it would be a hard line break.
        return next === "" || ASCII_PUNCTUATION.test(next) ? "\\\\" : ch;
      case "_":
        if (WORD_CHAR.test(text.charAt(offset - 1)) && WORD_CHAR.test(next)) return ch;
        return lazy ? MAYBE + ch : "\\_";
      case "<":
        return TAG_START.test(next) ? "\\<" : ch;
      case "&":
        return ENTITY.test(text.slice(offset, offset + 40)) ? "\\&" : ch;
      case "*":
      case "[":
      case "]":
        return lazy ? MAYBE + ch : `\\${ch}`;
      default:
        return `\\${ch}`;
    }
  });
}

/**
 * Escapes characters that would form inline syntax: emphasis, code, links, raw HTML, entities.
 * Intraword underscores (snake_case) and backslashes before letters (C:\Users) stay as they are,
 * because Markdown does not treat them as syntax.
 */
export function escapeInline(text: string): string {
  return escapeWith(text, false);
}

/**
 * escapeInline for text that is still being assembled into a paragraph: "*", "_", "[" and "]" are marked
 * rather than escaped, and settleEscapes escapes only those that could form syntax in the finished text.
 */
export function escapeInlineLazily(text: string): string {
  return escapeWith(text, true);
}

/** Link text and alt text keep their brackets escaped: an unescaped "]" would end them early. */
export function settleBrackets(text: string): string {
  return text.replace(/\ufdd6([[\]])/g, "\\$1");
}

/**
 * Turns the marks escapeInlineLazily left into escapes where they are needed: "*" and "_" when another of
 * the same character in the paragraph could pair with them into emphasis; "]" when "(" or "[" follows (a link);
 * "[" when it opens a line that reads as a link reference definition ("[1]: …"). Elsewhere they stay plain.
 */
export function settleEscapes(text: string): string {
  if (!text.includes(MAYBE)) return text;
  const count = (char: string): number => text.split(char).length - 1;
  const stars = count("*");
  const underscores = count("_");
  return text.replace(MAYBE_ESCAPES, (_match: string, char: string, offset: number) => {
    const next = text.charAt(offset + 2);
    const after = next === MAYBE ? text.charAt(offset + 3) : next;
    switch (char) {
      case "*":
        return stars > 1 ? "\\*" : "*";
      case "_":
        return underscores > 1 ? "\\_" : "_";
      case "]":
        return after === "(" || after === "[" ? "\\]" : "]";
      case "[": {
        const lineStart = offset === 0 || text.charAt(offset - 1) === "\n";
        if (!lineStart) return "[";
        // The rest of its line only: read to the paragraph's end from every line's "[", a paragraph of such lines took minutes.
        const lineEnd = text.indexOf("\n", offset + 2);
        const line = text.slice(offset + 2, lineEnd === -1 ? text.length : lineEnd);
        return /^[^\]\n]*\]:/.test(line.replace(MAYBE_ESCAPES, "$1")) ? "\\[" : "[";
      }
      default:
        return char;
    }
  });
}

/** Escapes a line's start when it would begin a heading, quote, list, rule, setext underline or fence. */
export function escapeLineStart(line: string): string {
  const ordered = /^(\d{1,9})[.)](?=[ \t]|$)/.exec(line);
  if (ordered?.[1] !== undefined) return `${ordered[1]}\\${line.slice(ordered[1].length)}`;
  return /^(?:#{1,6}(?=[ \t]|$)|>|[-+*](?=[ \t]|$)|[-=]+[ \t]*$|~~~)/.test(line) ? `\\${line}` : line;
}

/** Plain multi-line text as Markdown: escaped lines, runs of blank lines collapsed to one. */
export function escapeText(text: string): string {
  const out: string[] = [];
  for (const raw of text.split("\n")) {
    const line = oneLine(raw);
    if (line) out.push(escapeLineStart(escapeInline(line)));
    else if (out.length > 0 && out[out.length - 1] !== "") out.push("");
  }
  if (out[out.length - 1] === "") out.pop();
  return out.join("\n");
}

function longestRun(text: string, char: string): number {
  let longest = 0;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    run = text[i] === char ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  return longest;
}

/** A fenced code block whose fence is longer than any backtick run inside, so the code cannot close it. */
export function fencedBlock(code: string, language = ""): string {
  const fence = "`".repeat(Math.max(3, longestRun(code, "`") + 1));
  // An info string must not contain backticks or spaces.
  const info = language.replace(/[^\w+#.-]/g, "");
  return `${fence}${info}\n${code}\n${fence}`;
}

/** An inline code span; padded when the code starts or ends with a backtick (or with spaces on both sides, which Markdown would strip). */
export function codeSpan(code: string): string {
  const fence = "`".repeat(longestRun(code, "`") + 1);
  const pad =
    code.startsWith("`") || code.endsWith("`") || (code.startsWith(" ") && code.endsWith(" ") && code.trim() !== "")
      ? " "
      : "";
  return `${fence}${pad}${code}${pad}${fence}`;
}

const CONTROL_ESCAPES: Record<string, string> = { "\t": "\\t", "\n": "\\n", "\r": "\\r" };

/**
 * Text shown as it is on one line (a file name), as an inline code span: control characters, line breaks among them,
 * as visible escapes (`\n`, `\x1b`), so the text can neither end the span's line nor form Markdown structure.
 */
export function oneLineCodeSpan(text: string): string {
  return codeSpan(text.replace(/\p{Cc}/gu, (ch) => CONTROL_ESCAPES[ch] ?? `\\x${ch.charCodeAt(0).toString(16).padStart(2, "0")}`));
}
