/**
 * Emphasis is rendered in two steps: while inline content is built, each run is wrapped in placeholder
 * characters (Unicode noncharacters, dropped from the page's text as it is read: withoutNoncharacters); once the
 * content is complete, placeEmphasis turns them into Markdown markers. Only then is it known what touches a run
 * from outside: punctuation right after it ("**Note**:") moves inside ("**Note:**"), opening punctuation before it
 * as well, and a run inside a word ("un**believ**able") loses its markers, unless its script runs phrases on. Readers
 * see the same text; tools that match the text with the markers taken out no longer find a marker between a word and
 * its punctuation.
 */

export type EmphasisKind = "strong" | "em" | "strike";

const OPEN: Readonly<Record<EmphasisKind, string>> = { strong: "\ufdd0", em: "\ufdd2", strike: "\ufdd4" };
const CLOSE: Readonly<Record<EmphasisKind, string>> = { strong: "\ufdd1", em: "\ufdd3", strike: "\ufdd5" };
const MARKER: Readonly<Record<string, string>> = {
  "\ufdd0": "**", "\ufdd1": "**", "\ufdd2": "*", "\ufdd3": "*", "\ufdd4": "~~", "\ufdd5": "~~",
};
const IS_PLACEHOLDER = /[\ufdd0-\ufdd5]/;
const PLACEHOLDERS = new RegExp(IS_PLACEHOLDER.source, "g");
const isPlaceholder = (code: number): boolean => code >= 0xfdd0 && code <= 0xfdd5;
/** Opening placeholders are the even ones. */
const isOpen = (code: number): boolean => (code & 1) === 0;
const NONCHARACTERS = /[\ufdd0-\ufdef]/;
const ALL_NONCHARACTERS = new RegExp(NONCHARACTERS.source, "g");
/**
 * Page text without noncharacters, so none can pose as a placeholder. The renderer drops them from each text it
 * reads (text nodes, code, alt text, captions, code blocks) rather than the parser from the whole page: the renderer
 * reads only the content's text, and scanning every page for them was 3-5 % of an extraction (docs/extraction.md).
 */
export const withoutNoncharacters = (text: string): string => (NONCHARACTERS.test(text) ? text.replace(ALL_NONCHARACTERS, "") : text);

/**
 * Punctuation that moves into a run it touches: after a closing run, before an opening one. Not "]" or "[": moving
 * those would break a link around or inside the run.
 */
const TRAILING = new Set(".,:;!?)»”’\"'…");
const LEADING = new Set("(«„“‘\"'¿¡");
/**
 * A closing bracket or quote moves in only after a run that opens with its counterpart: "*(see)*", but "(a *stamp*)",
 * whose bracket opened before the run, keeps it outside, balanced.
 */
const OPENERS_OF: Readonly<Record<string, string>> = { ")": "(", "»": "«", "”": "“„", "’": "‘‚", '"': '"', "'": "'" };
const WORD_CHAR = /[\p{L}\p{N}]/u;
/**
 * Scripts in which a phrase set in bold touches letters as written: Chinese, Japanese, Thai and their neighbours put no
 * spaces between words ("検証を**境界で一度だけ**行う"), Korean joins its particles to the word before ("**추가해야 한다**는").
 */
const RUN_ON = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}]/u;
/** CommonMark's punctuation: a marker between a letter and one of these does not open or close a run. */
const PUNCTUATION = /[\p{P}\p{S}]/u;
/** A letter or digit a run may not touch: one of a script whose words a run does not run on into. */
const inSpacedWord = (char: string): boolean => WORD_CHAR.test(char) && !RUN_ON.test(char);

/** Emphasis of one kind around content already trimmed of surrounding spaces. */
export function emphasis(kind: EmphasisKind, core: string): string {
  return `${OPEN[kind]}${core}${CLOSE[kind]}`;
}

/**
 * Moves punctuation touching a run into it. Written out as pieces and looked at only next to each run: a pattern
 * anchored at the text's end, or a run joined to the rest of the text, reads the whole text again at every run.
 */
function moveTouchingPunctuation(text: string): string {
  const out: string[] = [];
  // The first character inside each open run, innermost last: what a closing bracket after it must match.
  const firsts: string[] = [];
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    if (!isPlaceholder(text.charCodeAt(i))) continue;
    if (i > from) out.push(text.slice(from, i));
    const opens = isOpen(text.charCodeAt(i));
    let end = i + 1;
    while (end < text.length && isPlaceholder(text.charCodeAt(end)) && isOpen(text.charCodeAt(end)) === opens) end++;
    const run = text.slice(i, end);
    if (opens) {
      const before = takeLeadingPunctuation(out);
      out.push(run, before);
      for (let n = 0; n < run.length; n++) firsts.push(before.charAt(0) || text.charAt(end));
    } else {
      // Trailing punctuation lands inside the outermost run this group closes.
      let first = "";
      for (let n = 0; n < run.length; n++) first = firsts.pop() ?? "";
      let after = end;
      while (after < text.length && TRAILING.has(text.charAt(after))) {
        const openers = OPENERS_OF[text.charAt(after)];
        if (openers !== undefined && (first === "" || !openers.includes(first))) break;
        after++;
      }
      out.push(text.slice(end, after), run);
      end = after;
    }
    from = end;
    i = end - 1;
  }
  out.push(text.slice(from));
  return out.join("");
}

/** Removes the opening punctuation at the end of what is written so far (it may span pieces) and returns it. */
function takeLeadingPunctuation(out: string[]): string {
  let taken = "";
  while (out.length > 0) {
    const piece = out[out.length - 1] as string;
    let start = piece.length;
    while (start > 0 && LEADING.has(piece.charAt(start - 1))) start--;
    taken = piece.slice(start) + taken;
    if (start > 0) {
      out[out.length - 1] = piece.slice(0, start);
      break;
    }
    out.pop();
  }
  return taken;
}

/**
 * Splits link text that is emphasised as a whole ("[**aborto**]") into the markers and what they wrap, so that
 * the link can be written inside the emphasis ("**[aborto](…)**"): punctuation after the link then moves inside
 * the run as after any other. Undefined when the emphasis does not wrap the whole text.
 */
export function outerEmphasis(text: string): { open: string; core: string; close: string } | undefined {
  let depth = 0;
  while (depth < text.length && isPlaceholder(text.charCodeAt(depth)) && isOpen(text.charCodeAt(depth))) depth++;
  if (depth === 0) return undefined;
  // The markers opened first must close last, and nothing of theirs may close earlier.
  let level = depth;
  for (let index = depth; index < text.length - depth; index++) {
    const code = text.charCodeAt(index);
    if (!isPlaceholder(code)) continue;
    level += isOpen(code) ? 1 : -1;
    if (level < depth) return undefined;
  }
  const close = text.slice(text.length - depth);
  if (close.length !== depth || [...close].some((char) => !isPlaceholder(char.charCodeAt(0)) || isOpen(char.charCodeAt(0)))) return undefined;
  return { open: text.slice(0, depth), core: text.slice(depth, text.length - depth), close };
}

/** Replaces the placeholders in finished inline content with Markdown markers, placed as described above. */
export function placeEmphasis(text: string): string {
  if (!IS_PLACEHOLDER.test(text)) return text;
  const moved = moveTouchingPunctuation(text);
  // Placeholders are single UTF-16 units, so string indexes find them and their neighbours.
  const open: number[] = [];
  const drop = new Set<number>();
  for (let index = 0; index < moved.length; index++) {
    const code = moved.charCodeAt(index);
    if (!isPlaceholder(code)) continue;
    if (isOpen(code)) {
      open.push(index);
      continue;
    }
    const start = open.pop();
    if (start === undefined) drop.add(index);
    else {
      const before = moved.charAt(start - 1);
      const after = moved.charAt(index + 1);
      // Between letters of such a script, markers read as a run only when its edges inside are no punctuation.
      const unread = (WORD_CHAR.test(before) && PUNCTUATION.test(moved.charAt(start + 1))) || (WORD_CHAR.test(after) && PUNCTUATION.test(moved.charAt(index - 1)));
      if (inSpacedWord(before) || inSpacedWord(after) || unread) {
        drop.add(start);
        drop.add(index);
      }
    }
  }
  for (const index of open) drop.add(index);
  return moved.replace(PLACEHOLDERS, (char: string, index: number) => (drop.has(index) ? "" : (MARKER[char] ?? "")));
}
