import type { ChildNode, Element } from "domhandler";
import { elementChildren, elementFrom, findElement, isElement, isText, nodeBeside, shortText, textContent, walk } from "../dom.ts";
import { BLOCK_ELEMENTS, HEADING_LEVELS } from "./block-elements.ts";
import { classHint } from "./class-hints.ts";
import { codeBlock, codeLanguage, countsLines, editorCodeBlock, isCodeOfBreaks, isCodeOfRows, numberedCodeTable } from "./code-block.ts";
import { delimitedFormula, isTypesetCopy, mathMlFormula, scriptFormula } from "./formula.ts";
import { linksToItsOwnPlace } from "./own-place-link.ts";
import { imageUrl, noscriptImage } from "./image-source.ts";
import { isHidden } from "./visibility.ts";
import { radioTabPanels, TabSet } from "./tab-set.ts";
import { taskCheckbox } from "./task-list.ts";
import { Footnotes } from "./footnotes.ts";
import { colspan, tableGrid } from "./table-grid.ts";
import { type EmphasisKind, emphasis, outerEmphasis, placeEmphasis, withoutNoncharacters } from "../markdown-emphasis.ts";
import { codeSpan, escapeInline, escapeInlineLazily, escapeLineStart, settleBrackets, settleEscapes } from "../markdown-syntax.ts";
import { type ColumnAlignment, markdownTable } from "../markdown-table.ts";
import { resolveUrl } from "../resolve-url.ts";
import { collapseSpaces, isHtmlSpace, oneLine } from "../whitespace.ts";
import { wordsOf } from "../repeats-title.ts";

/**
 * Converts the content under one HTML element into Markdown. Rendering recurses along the tree; parseHtml
 * caps nesting, which bounds the recursion.
 */

export interface RenderOptions {
  /** Links and images resolve against this. */
  baseUrl: string;
  /** Elements left out besides hidden ones: the boilerplate content selection found. */
  skip: (element: Element) => boolean;
  /** Pictures and their captions: a caption becomes its picture's title, so it stays with the picture. */
  captions?: ReadonlyMap<Element, Element>;
  /**
   * Whether a page's furniture was left out of the nodes: headings that end the text with nothing under them and read
   * as labels then named what was left out after them (a gallery's "Photos", a widget's "Become a fan"), and go too,
   * as do such headings that link away (a closing prompt). A document converted whole keeps its every heading.
   */
  pruned?: boolean;
}

/** Deeper lists and quotes render flat: every level re-indents its content, so the cost grows with depth. */
const MAX_LIST_DEPTH = 12;
const MAX_QUOTE_DEPTH = 8;

/** How far down an element's first or last text is looked for: in an element at most this many levels below it. */
const MAX_EDGE_LEVELS = 4;

/** The text a node's text starts or ends with, read down its first or last children; undefined past MAX_EDGE_LEVELS. */
function edgeText(node: ChildNode, end: "first" | "last"): string | undefined {
  let at: ChildNode | undefined = node;
  for (let level = 0; at !== undefined; level++) {
    if (isText(at)) return at.data;
    if (!isElement(at) || level > MAX_EDGE_LEVELS) return undefined;
    at = end === "first" ? at.children[0] : at.children[at.children.length - 1];
  }
  return undefined;
}

/**
 * Whether text ends a sentence: with "!", "?", "…" or "..", or with "." after a word that follows a space ("The bridge
 * closed."). A dotted name's end is no sentence's (Sphinx's "tessellate.grid." before the class's name).
 */
function endsSentence(text: string): boolean {
  const last = text.at(-1);
  if (last === "!" || last === "?" || last === "…") return true;
  if (last !== "." || text.length < 2) return false;
  if (text.charAt(text.length - 2) === ".") return true;
  for (let i = text.length - 2; i >= 0; i--) if (isHtmlSpace(text.charCodeAt(i))) return i < text.length - 2;
  return false;
}

const ENDS_WORD = /[\p{Ll}\p{Nd})\]]/u;
const STARTS_WORD = /\p{Lu}/u;
const SMALL_LETTER = /\p{Ll}/u;
const DIGIT = /\p{Nd}/u;
/** Elements in the text that show nothing, looked past: at most two between the words. */
const UNSHOWN = new Set(["meta", "link"]);
const MAX_UNSHOWN = 2;
/** Set above or below the line: an index or an exponent (m², H₂O), part of the word before it. */
const SCRIPTS = new Set(["sub", "sup"]);

/**
 * Whether an inline element starts a new word though no space stands before it: it follows another element straight
 * away, that one ends a word, a bracket or a sentence and this one starts with a capital ("closed.Credit"), or a small
 * letter is followed by a number (a reference's label and its entry, a time and its author's name, a post's time and its number, each set
 * apart by style: "(2017)Noam", "10:42Maria", "11:00am2").
 */
function gluedToPrevious(node: ChildNode): boolean {
  let { prev } = node;
  // Microdata's <meta> and <link> show nothing between the two (Discourse's post number after a <meta>).
  for (let skipped = 0; skipped < MAX_UNSHOWN && prev && isElement(prev) && UNSHOWN.has(prev.name); skipped++) prev = prev.prev;
  if (!prev || !isElement(prev) || BLOCK_ELEMENTS.has(prev.name) || prev.name === "br" || SCRIPTS.has(prev.name)) return false;
  const element = isElement(node) ? node : undefined;
  if (element && BLOCK_ELEMENTS.has(element.name)) return false;
  const lastText = edgeText(prev, "last");
  const last = lastText?.at(-1);
  if (lastText === undefined || last === undefined || !(ENDS_WORD.test(last) || endsSentence(lastText))) return false;
  const first = edgeText(node, "first")?.charAt(0);
  if (!first) return false;
  // A number after a word is a word of its own ("11:00am" and a post's number); after a digit it goes on.
  return STARTS_WORD.test(first) || (DIGIT.test(first) && SMALL_LETTER.test(last) && !(element && SCRIPTS.has(element.name)));
}

/**
 * Whether an element stands in a quotation's own box, not in a paragraph of it: in the `<blockquote>`, or in the one
 * box it holds (phpBB's `<blockquote><div><cite>`).
 */
function opensQuotation(element: Element): boolean {
  const { parent } = element;
  if (!parent || !isElement(parent)) return false;
  return parent.name === "blockquote" || (parent.name === "div" && parent.parent !== null && isElement(parent.parent) && parent.parent.name === "blockquote");
}

/**
 * A figure of a quotation and its caption, and nothing else shown (HTML's own way to say whom a quotation is from:
 * `<figure><blockquote>…</blockquote><figcaption>name</figcaption></figure>`).
 */
function quotationFigure(figure: Element): { quotation: Element; caption: Element } | undefined {
  let quotation: Element | undefined;
  let caption: Element | undefined;
  for (const child of figure.children) {
    if (isText(child)) {
      if (child.data.trim() !== "") return undefined;
    } else if (isElement(child)) {
      if (child.name === "blockquote" && !quotation) quotation = child;
      else if (child.name === "figcaption" && !caption) caption = child;
      else return undefined;
    }
  }
  return quotation && caption ? { quotation, caption } : undefined;
}

/** A label's one word, at most this long ("Fotografía:"). */
const MAX_DANGLING_LABEL_CHARS = 12;
const LABEL_LETTER = /\p{L}/u;
const LABEL_DASHES = new Set(["—", "–", "-", "|", "/"]);

/**
 * A caption's text without a one-word label set apart by a dash at its end, with nothing after it: what titled its
 * credit, once the credit is left out ("A boat at sea — Foto:" of Globo's `— Foto: <span class="…__credit">`). Read
 * back from the end, a label's length at most. A caption's own last words before a colon ("Two kinds of hull:") stay.
 */
function withoutDanglingLabel(text: string): string {
  if (!text.endsWith(":")) return text;
  let start = text.length - 1;
  while (start > 0 && text.length - 1 - start < MAX_DANGLING_LABEL_CHARS && LABEL_LETTER.test(text.charAt(start - 1))) start--;
  if (start === text.length - 1 || text.charAt(start - 1) !== " ") return text;
  let end = start - 1;
  while (end > 0 && text.charAt(end - 1) === " ") end--;
  if (end === 0 || !LABEL_DASHES.has(text.charAt(end - 1))) return text;
  end--;
  while (end > 0 && text.charAt(end - 1) === " ") end--;
  return end > 0 ? text.slice(0, end) : text;
}

const LEADING_BREAK = /^[^\S\n]*\n/;
const TRAILING_BREAK = /\n[^\S\n]*$/;

/** A link of `text` (content as one line) to url, the content's spaces at either end kept outside it. */
function linkedText(content: string, text: string, url: string): string {
  const outer = outerEmphasis(text);
  const link = outer ? `${outer.open}[${outer.core}](${url})${outer.close}` : `[${text}](${url})`;
  return `${/^\s/.test(content) ? " " : ""}${link}${/\s$/.test(content) ? " " : ""}`;
}

const SUPERSCRIPTS: Readonly<Record<string, string>> = {
  "0": "⁰", "1": "¹", "2": "²", "3": "³", "4": "⁴", "5": "⁵", "6": "⁶", "7": "⁷", "8": "⁸", "9": "⁹",
  "+": "⁺", "-": "⁻", "−": "⁻", "=": "⁼", "(": "⁽", ")": "⁾", n: "ⁿ", i: "ⁱ",
};
const SUBSCRIPTS: Readonly<Record<string, string>> = {
  "0": "₀", "1": "₁", "2": "₂", "3": "₃", "4": "₄", "5": "₅", "6": "₆", "7": "₇", "8": "₈", "9": "₉",
  "+": "₊", "-": "₋", "−": "₋", "=": "₌", "(": "₍", ")": "₎",
};
const SCRIPT_BASE = /[\p{L}\p{N})\]]/u;
/** An exponent or an index longer than this is text set small (a footnote's words), not a figure's. */
const MAX_SCRIPT_CHARS = 8;

/**
 * An exponent or an index of digits and signs in the characters that set it above or below the line (10⁶ km², ha⁻¹,
 * H₂O): written inline as the digits alone it reads as another number ("106 km2"). Undefined for any other: words,
 * a footnote's link (its own element), what no such character exists for.
 */
function scriptCharacters(element: Element): string | undefined {
  const [only] = element.children;
  if (!only || element.children.length !== 1 || !isText(only)) return undefined;
  // An exponent or an index is set against what it is of ("km²", "10⁶", "(x+1)²"); a number after a space or opening a
  // line is a verse's or a list's number, written as a number.
  const before = element.prev ? edgeText(element.prev, "last")?.at(-1) : undefined;
  if (before === undefined || !SCRIPT_BASE.test(before)) return undefined;
  const text = only.data.trim();
  if (text === "" || text.length > MAX_SCRIPT_CHARS) return undefined;
  const table = element.name === "sup" ? SUPERSCRIPTS : SUBSCRIPTS;
  let out = "";
  for (const character of text) {
    const mapped = table[character];
    if (mapped === undefined) return undefined;
    out += mapped;
  }
  // A space written inside it still parts it from the word after it (a verse's number, "⁹ For this reason").
  return `${only.data.startsWith(text) ? "" : " "}${out}${only.data.endsWith(text) ? "" : " "}`;
}

/** A block that is a picture, linked or not. */
const PICTURE_BLOCK = /^\[?!\[/;
/** A list item's number as written: "1.", "1)", "(1)", its full stop escaped or not. */
const WRITTEN_NUMBER = /^\(?(\d{1,9})\\?[.)]?$/;

/** The number a block is, when it is only a list item's number; undefined for any other block. */
function ownNumber(block: string): number | undefined {
  const digits = WRITTEN_NUMBER.exec(block)?.[1];
  return digits === undefined ? undefined : Number(digits);
}

/** A block that opens with a code fence. */
const FENCE_START = /^(?:```|~~~)/;

/** A line that opens with a dash already says it is an attribution. */
const ATTRIBUTION_MARK = /^[-–—―]/;

/** A declaration of bold type (bold, bolder, a weight of 600 or more) or of italics in an element's style. */
const BOLD_STYLE = /(?:^|;)\s*font-weight\s*:\s*(?:bold|bolder|[6-9]00)\s*(?:!important\s*)?(?:;|$)/i;
const ITALIC_STYLE = /(?:^|;)\s*font-style\s*:\s*(?:italic|oblique)\s*(?:!important\s*)?(?:;|$)/i;
/** Longer style values are a page's layout, not a run of text set in bold; they are not read. */
const MAX_STYLE_CHARS = 500;

/**
 * Emphasis a span sets by its style alone, as editors write it (Ameba's and other blog editors' `<span
 * style="font-weight:bold;">`, Google Docs' `font-weight:700`, Notion's): undefined when it sets none.
 */
function styledEmphasis(span: Element): { strong: boolean; em: boolean } | undefined {
  const { style } = span.attribs;
  if (style === undefined || style.length > MAX_STYLE_CHARS) return undefined;
  const strong = BOLD_STYLE.test(style);
  const em = ITALIC_STYLE.test(style);
  return strong || em ? { strong, em } : undefined;
}

/** Whether a node ends the line before it and starts the next: a block or a line break. */
const breaksLine = (node: ChildNode | null): boolean => node !== null && isElement(node) && (BLOCK_ELEMENTS.has(node.name) || node.name === "br");

/** Blocks that hold text rather than title it. */
const TEXT_BLOCKS = new Set(["p", "ul", "ol", "dl", "table", "blockquote", "pre"]);

/** Inline elements with Markdown of their own; every other inline element just passes its content through. */
const FORMATTING = new Set(["a", "b", "strong", "i", "em", "del", "s", "strike", "code", "kbd", "samp", "tt", "img", "q", "math", "sup", "sub"]);

const LIST_START = /^(?:- |\d{1,9}\. )/;

/**
 * A fact in a box of facts: an element holding a heading that labels it and the value after it, and nothing else
 * (Fandom's `<div class="pi-data"><h3>Born</h3><div>3E 412</div></div>`), written as one line.
 */
function factParts(element: Element): { label: Element; value: Element } | undefined {
  const [label, value, ...more] = elementChildren(element, 2) ?? [];
  if (!label || !value || more.length > 0 || HEADING_LEVELS[label.name] === undefined || HEADING_LEVELS[value.name] !== undefined) return undefined;
  return { label, value };
}

interface Scope {
  listDepth: number;
  quoteDepth: number;
  /** Inside a callout: parts of it named as such (its body, admonitionContent) are not callouts of their own. */
  inCallout: boolean;
  /** Inside a box of facts beside the text: its headings title its groups and label its values, not the article's sections. */
  inFactBox: boolean;
}

/** Inline state: which wrappers are open, so <b><b>x</b></b> does not become ****x****. */
interface InlineScope {
  strong: boolean;
  em: boolean;
  strike: boolean;
  link: boolean;
  /** What a block element inside inline content turns into: a space, or a line break in table cells. */
  blockBreak: " " | "\n";
}

/** Inline content collected so far, and the finished blocks of the current flow. */
interface Flow {
  blocks: string[];
  inline: string;
}

/**
 * Whether an inline element is followed on its line by more text: a callout's title so set ("<strong>Note:</strong> Run
 * it once.") is the first words of its line, not a line over it.
 */
function runsOn(element: Element): boolean {
  if (BLOCK_ELEMENTS.has(element.name)) return false;
  const after = nodeBeside(element);
  return after !== null && (isText(after) || (isElement(after) && !BLOCK_ELEMENTS.has(after.name) && after.name !== "br"));
}

/** A callout's title is a few words: "Note", "Warning", "Be careful", "Before you begin". */
const MAX_CALLOUT_TITLE_CHARS = 40;
/** A title does not end as a sentence does; "Note:" and "Warning!" are titles. */
const SENTENCE_END = /[.?…]$/;

/** Headlines and captions are shorter than this; a repeated block this long is a paragraph. */
const MAX_COPY_CHARS = 300;

/** A block that is one picture, linked or not: its Markdown opens with the picture and ends with it, on one line. */
const LONE_PICTURE = /^\[?!\[[^\n]*\)$/;

/** Text with a letter or a digit in it: words, where an icon set as text has none. */
const WORDED = /[\p{L}\p{N}]/u;

/** A block that is a heading. */
const HEADING_BLOCK = /^#{1,6} /;
/** A heading whose line does not end as a sentence or a quotation does: a label. */
const LABEL_HEADING = /^#{1,6} [^\n]*[^.!?…:"”]$/;
/**
 * A heading holding a link: with nothing under it at the end, a notice or a call to action set in heading type ("Not
 * the answer you're looking for? Browse other questions tagged …", "Follow us on Twitter here.").
 */
const LINKING_HEADING = /^#{1,6} [^\n]*\]\(/;

/**
 * A callout laid out as a table of one row of two cells, its kind in the first (Asciidoctor's `admonitionblock`: a
 * `<div class="title">Note</div>`, or an icon titled "Note") and its text in the second; undefined for any other table.
 */
function titledRow(table: Element): { title: string; body: Element } | undefined {
  const group = elementChildren(table, 1)?.[0];
  const rows = group && group.name !== "tr" ? elementChildren(group, 1) : group && [group];
  const cells = rows?.length === 1 && rows[0]?.name === "tr" ? elementChildren(rows[0], 2) : undefined;
  const [kind, body] = cells ?? [];
  if (!kind || !body || cells?.length !== 2) return undefined;
  const icon = elementChildren(kind, 1)?.[0];
  const title = shortText(kind, MAX_CALLOUT_TITLE_CHARS) || (icon && shortText(icon, 0) === "" ? oneLine(icon.attribs.title ?? "") : "");
  return title && title.length <= MAX_CALLOUT_TITLE_CHARS && !SENTENCE_END.test(title) ? { title, body } : undefined;
}

/** Markdown for a list of sibling nodes (the main block, or it and the siblings that continue it). */
export function htmlToMarkdown(nodes: readonly ChildNode[], options: RenderOptions): string {
  const blocks = new Renderer(options, nodes).flow(nodes, { listDepth: 0, quoteDepth: 0, inCallout: false, inFactBox: false });
  // A short block right after the same block is a copy (a headline repeated under its picture, a caption shown
  // twice), and so is a picture (a lightbox's copy of it); a paragraph is the author's, written as often as it was.
  const kept = blocks.filter((block, i) => (block.length > MAX_COPY_CHARS && !LONE_PICTURE.test(block)) || block !== blocks[i - 1]);
  if (!options.pruned) return kept.join("\n\n");
  const text = withoutPullQuotes(kept);
  // A sentence set as a heading (a pull quote) is the author's text, unless it links away; so are headings with no
  // other text.
  const lastText = text.findLastIndex((block) => !HEADING_BLOCK.test(block));
  let end = text.length;
  while (lastText >= 0 && end > lastText + 1 && (LABEL_HEADING.test(text[end - 1]!) || LINKING_HEADING.test(text[end - 1]!))) end--;
  return text.slice(0, end).join("\n\n");
}

/** A quotation block. */
const QUOTE_BLOCK = /^> /;
/** A pull quote repeats a sentence or more: a shorter quotation is left as it is, however common its words. */
const MIN_PULL_QUOTE_WORDS = 8;
/** Share of a quotation's runs of three words the text says after it for it to be the text's words set large. */
const PULL_QUOTE_SHARE = 0.8;

/** Runs of three words, lower-cased, in a block's text (link targets read as words too: they are not in a quotation's). */
function wordTriples(block: string): string[] {
  const words = wordsOf(block);
  const triples: string[] = [];
  for (let i = 2; i < words.length; i++) triples.push(`${words[i - 2]} ${words[i - 1]} ${words[i]}`);
  return triples;
}

/**
 * Blocks without the pull quotes: quotations whose words the text says after them (a magazine's sentence from the next
 * paragraph set large beside it, Wired's `pull-quote`). A quotation the text does not repeat is the author's; one of
 * words said before it quotes them (a forum reply quoting the post above, an answer its question), and stays too.
 */
function withoutPullQuotes(blocks: readonly string[]): readonly string[] {
  const long = (triples: readonly string[] | undefined): triples is readonly string[] => triples !== undefined && triples.length >= MIN_PULL_QUOTE_WORDS - 2;
  const quotes = blocks.map((block) => (QUOTE_BLOCK.test(block) ? wordTriples(block) : undefined));
  if (!quotes.some(long)) return blocks;
  const said = new Set<string>();
  const pull = new Set<number>();
  for (let i = blocks.length - 1; i >= 0; i--) {
    const triples = quotes[i];
    if (!triples) for (const triple of wordTriples(blocks[i]!)) said.add(triple);
    else if (long(triples) && triples.filter((triple) => said.has(triple)).length >= triples.length * PULL_QUOTE_SHARE) pull.add(i);
  }
  return blocks.filter((_, i) => !pull.has(i));
}

/**
 * A note's link back to its reference: an arrow or caret (↩, ↑, ^), or a letter or number per reference (Wikipedia's
 * a, b, 2.0; Drupal's "1.").
 */
const BACK_LINK = /^(?:\\?[↩↑^]\ufe0e?|\p{L}{1,2}|\d{1,3}(?:\.\d{1,3})?(?:\\?\.)?)$/u;

/** Brackets with nothing in them ending a note, and a space before them. */
const EMPTY_BRACKETS = / ?\\?\[\\?\]$/;

/** What holds a note's links back (MediaWiki's mw-cite-backlink with its "↑", pandoc's footnote-back, kramdown's reversefootnote). */
const BACK_LINKS_CLASS = /(?:^|\s)(?:mw-cite-backlink|footnote-back(?:ref)?|reversefootnote)(?:\s|$)/;

/** The marks documentation generators link a heading to itself with. */
const PERMALINK_MARKS = new Set(["¶", "§", "#", "🔗"]);
/** A permalink mark is a character or two: a link showing more is read no further. */
const MAX_MARK_CHARS = 2;
/** Whether an element is shown to sight: not words set for screen readers only (sr-only, visually-hidden). */
const isShown = (element: Element): boolean => !classHint(element).spoken;

/**
 * A link whose whole text is one symbol and whose title or label says what it does is an icon button (an edit link's
 * "✎", a share link's "🔗"): its text says nothing to a reader of the text. A footnote's "↩" back to the text has no
 * title, and stays.
 */
const ICON = /^\p{So}\uFE0F?$/u;

/** Text made only of Unicode's format characters (zero-width spaces and joiners, soft hyphens, direction marks) shows nothing. */
const INVISIBLE = /^\p{Cf}*$/u;
const FORMAT_CHARACTERS = /\p{Cf}/gu;

/** Quotation marks, opening and closing, of the languages pages are written in. */
const QUOTE_MARKS = new Set(["\"", "'", "„", "“", "”", "‚", "‘", "’", "«", "»", "‹", "›", "「", "」", "『", "』"]);

/** Whether the text around a <q> already has quotation marks: the element's own would double them. */
function quotedByAuthor(element: Element): boolean {
  const { prev, next } = element;
  return (prev !== null && isText(prev) && QUOTE_MARKS.has(prev.data.trimEnd().at(-1) ?? "")) || (next !== null && isText(next) && QUOTE_MARKS.has(next.data.trimStart().charAt(0)));
}

function inlineText(data: string): string {
  return escapeInlineLazily(collapseSpaces(withoutNoncharacters(data)));
}

/** A list style that numbers the items (decimal, roman, alphabetic) as its first value, as a style attribute sets it. */
const NUMBERED_STYLE = /list-style(?:-type)?\s*:\s*(?:decimal|(?:lower|upper)-(?:roman|alpha|latin))\b/i;

/**
 * Whether a <ul> is numbered by its style or its first item's (WP Recipe Maker writes a recipe's steps as
 * `<ul><li style="list-style-type: decimal">`): the reader sees steps 1, 2, 3.
 */
function numberedByStyle(list: Element): boolean {
  if (list.name !== "ul") return false;
  const item = elementFrom(list.children[0]);
  return NUMBERED_STYLE.test(list.attribs.style ?? "") || (item?.name === "li" && NUMBERED_STYLE.test(item.attribs.style ?? ""));
}

/** A formula in the flow: displayed ones (`$$…$$`) as blocks of their own, others in the line. */
function writeFormula(formula: string | undefined, out: Flow): void {
  if (formula?.startsWith("$$")) {
    flush(out);
    out.blocks.push(formula);
  } else if (formula) out.inline += formula;
}

/** Ends the current paragraph: "\n" marks <br>; an empty line (two <br>s) splits paragraphs. */
function flush(out: Flow): void {
  if (out.inline === "") return;
  let lines: string[] = [];
  for (const raw of finish(out.inline).split("\n")) {
    const line = raw.replace(/ {2,}/g, " ").trim();
    if (line) lines.push(escapeLineStart(line));
    else if (lines.length > 0) {
      out.blocks.push(lines.join("  \n"));
      lines = [];
    }
  }
  if (lines.length > 0) out.blocks.push(lines.join("  \n"));
  out.inline = "";
}

/** Finished inline content: emphasis placed, escapes settled. */
function finish(inline: string): string {
  return settleEscapes(placeEmphasis(inline));
}

/** Emphasis around trimmed content; surrounding spaces move outside, where Markdown expects them. */
function wrap(inner: string, kind: EmphasisKind): string {
  const core = inner.trim();
  if (!core) return inner;
  return `${/^\s/.test(inner) ? " " : ""}${emphasis(kind, core)}${/\s$/.test(inner) ? " " : ""}`;
}

function indentContinuation(text: string, width: number): string {
  const pad = " ".repeat(width);
  return text
    .split("\n")
    .map((line, i) => (i === 0 || line === "" ? line : pad + line))
    .join("\n");
}

/** A header over a code block holding its language's name and a copy button's text is short. */
const MAX_CODE_HEADER_CHARS = 100;

/** schema.org's answer to a question, by its type or by the property the question holds it in. */
const SCHEMA_ANSWER_TYPE = /schema\.org\/Answer\b/;
const SCHEMA_ANSWER_PROPERTY = /(?:^|\s)(?:acceptedAnswer|suggestedAnswer)(?:\s|$)/;
const isAnswer = ({ attribs: { itemtype, itemprop } }: Element): boolean =>
  (itemtype !== undefined && SCHEMA_ANSWER_TYPE.test(itemtype)) || (itemprop !== undefined && SCHEMA_ANSWER_PROPERTY.test(itemprop));

/** The score schema.org gives an answer, and the answer a question's asker accepted. */
const SCHEMA_VOTES_PROPERTY = /(?:^|\s)upvoteCount(?:\s|$)/;
const SCHEMA_ACCEPTED_PROPERTY = /(?:^|\s)acceptedAnswer(?:\s|$)/;
/** A count as sites show one: 3528, -2, 1,204, 12.1k. */
const VOTE_COUNT = /^[+\-−]?\d[\d,.]{0,12}[kKmM]?$/u;
/** One vote, with its sign or not. */
const ONE_VOTE = /^[+\-−]?1$/u;

/**
 * An answer's score: its own upvoteCount (a meta's content, the count's data-value or its text), not a nested item's (a
 * comment's votes); looked for up to nested items and answers, so nested answers read each element once.
 */
function answerVotes(answer: Element): { element: Element; count: string } | undefined {
  const element = findElement(answer, (inner) => SCHEMA_VOTES_PROPERTY.test(inner.attribs.itemprop ?? ""), (inner) => inner.attribs.itemscope !== undefined || isAnswer(inner));
  if (!element) return undefined;
  const count = (element.attribs.content ?? element.attribs["data-value"] ?? shortText(element, 16) ?? "").trim();
  return VOTE_COUNT.test(count) ? { element, count } : undefined;
}

/** What a holder of radio buttons' labels starts with. */
const RADIO_TAB_PARTS = new Set(["input", "label"]);

/** Whether an element's first element child has one of the names. */
function firstElementIs(element: Element, names: ReadonlySet<string>): boolean {
  const first = elementFrom(element.children[0]);
  return first !== undefined && names.has(first.name);
}

/** Alt text of emoji only. Built at run time: the `v` flag is newer than the TypeScript target. */
const EMOJI = new RegExp("^[\\p{RGI_Emoji}\\p{Extended_Pictographic}]+$", "v");

/** Alt text that only names the file or says "image" tells a reader nothing. */
const MEANINGLESS_ALT = /^(?:[\w-]+\.(?:jpe?g|png|gif|webp|svg|avif)|image|img|photo|picture|pic|graphic|logo|icon|avatar|placeholder|spacer|banner)$/i;
/** Icons, spacers and tracking pixels are drawn this small or smaller. */
const MAX_DECORATION_PX = 24;

/** Alt text describes a picture unless it only names the file or says "image". */
function describes(alt: string): boolean {
  // One word with an underscore is a file name (IMG_2041). Not a pattern of \S* on both sides: it reads the rest
  // from every position it could split at.
  return alt !== "" && !MEANINGLESS_ALT.test(alt) && !(alt.includes("_") && !/\s/.test(alt));
}

/** Icons, spacers and tracking pixels. */
function isDecoration(image: Element): boolean {
  const size = (value: string | undefined): number => Number.parseInt(value ?? "", 10);
  const { width, height } = image.attribs;
  return size(width) <= MAX_DECORATION_PX || size(height) <= MAX_DECORATION_PX;
}

/**
 * A Markdown link title in double quotes. Parentheses are written as character references: tools that find
 * the end of a link at its first ")" then still find the right one.
 */
function linkTitle(text: string): string {
  return ` "${text.replace(/[\\"]/g, "\\$&").replace(/\(/g, "&#40;").replace(/\)/g, "&#41;")}"`;
}

function startNumber(value: string | undefined): number {
  const start = Number.parseInt(value ?? "", 10);
  // Markdown list numbers have at most nine digits.
  return Number.isInteger(start) && start >= 0 && start < 1e9 ? start : 1;
}

/** A cell of a data table holds a value, a name or a phrase; a longer text is a page's column. */
const MAX_DATA_CELL_CHARS = 100;

/**
 * Whether a grid of two rows and two columns or more is a page's layout: marked so (role=presentation or none), or
 * small (at most 10 cells in under 10 rows of at most 4 columns, Readability's bound) with nothing that heads it as data
 * (header cells, a header or footer row group, column groups, a caption or a summary) and either fewer than two cells
 * with text (spacers and pictures around one text) or a cell with more text than a value (a story in a column).
 */
function isLayoutGrid(table: Element, rows: readonly (readonly Element[])[], width: number, captioned: boolean): boolean {
  const role = table.attribs.role?.trim().toLowerCase();
  if (role === "presentation" || role === "none") return true;
  if (rows.length >= 10 || width > 4 || rows.length * width > 10 || captioned || table.attribs.summary !== undefined) return false;
  if (findElement(table, (element) => HEADER_PARTS.has(element.name)) !== undefined) return false;
  const texts = rows.flat().map((cell) => oneLine(textContent(cell)).length).filter((chars) => chars > 0);
  return texts.length < 2 || texts.some((chars) => chars > MAX_DATA_CELL_CHARS);
}
const HEADER_PARTS = new Set(["th", "thead", "tfoot", "colgroup"]);

/** A cell's alignment as HTML gives it: its align attribute (GitHub's rendered tables) or its style's text-align (pandoc's). */
const TEXT_ALIGN = /text-align\s*:\s*(left|right|center)\b/i;

function cellAlignment(cell: Element): ColumnAlignment | undefined {
  const value = (cell.attribs.align ?? TEXT_ALIGN.exec(cell.attribs.style ?? "")?.[1])?.trim().toLowerCase();
  return value === "left" || value === "right" || value === "center" ? value : undefined;
}

/** ARIA's roles for a table's cells. */
const ARIA_CELLS = new Set(["cell", "gridcell", "columnheader", "rowheader"]);

function tableRows(table: Element): Element[] {
  const head: Element[] = [];
  const body: Element[] = [];
  const foot: Element[] = [];
  const rowsOf = (group: Element): Element[] =>
    group.children.filter((child): child is Element => isElement(child) && child.name === "tr");
  for (const child of table.children) {
    if (!isElement(child)) continue;
    if (child.name === "tr") body.push(child);
    else if (child.name === "thead") head.push(...rowsOf(child));
    else if (child.name === "tbody") body.push(...rowsOf(child));
    else if (child.name === "tfoot") foot.push(...rowsOf(child));
  }
  return [...head, ...body, ...foot];
}

class Renderer {
  readonly baseUrl: string;
  readonly skip: (element: Element) => boolean;
  readonly captions: ReadonlyMap<Element, Element>;
  /** Captions already written: as a picture's title, or as text where no picture took them. */
  readonly written = new Set<Element>();
  /** Answers' scores, written over each answer. */
  readonly shownVotes = new Set<Element>();
  readonly captionElements: ReadonlySet<Element>;
  /** The tab widget whose panels are being read: each is written under its tab's name. */
  tabs: TabSet | undefined;
  /** Panels of tabs made of radio buttons, with their labels. */
  readonly radioPanels = new Map<Element, Element>();

  /** Footnotes' references and notes, written as GFM's. */
  readonly footnotes: Footnotes;
  /** How many lists of notes are being written: a link back to a reference there is the note's way back, not its text. */
  private inNotes = 0;

  constructor(options: RenderOptions, nodes: readonly ChildNode[]) {
    this.baseUrl = options.baseUrl;
    this.skip = options.skip;
    this.captions = options.captions ?? new Map();
    this.captionElements = new Set(this.captions.values());
    this.footnotes = new Footnotes(nodes, (element) => this.dropped(element));
  }

  dropped(element: Element): boolean {
    return isHidden(element) || this.skip(element) || (this.inNotes > 0 && BACK_LINKS_CLASS.test(element.attribs.class ?? ""));
  }

  /** Block-level rendering: the Markdown blocks (paragraphs, headings, lists …) of a node list. */
  flow(nodes: readonly ChildNode[], scope: Scope): string[] {
    const out: Flow = { blocks: [], inline: "" };
    for (const node of nodes) this.flowNode(node, out, scope);
    flush(out);
    return out.blocks;
  }

  flowNode(node: ChildNode, out: Flow, scope: Scope): void {
    if (isText(node)) {
      if (gluedToPrevious(node)) out.inline += " ";
      out.inline += inlineText(node.data);
      return;
    }
    if (!isElement(node)) return;
    // A tab list names the panels after it, left out or not (a menu by its names); it is not written itself.
    if (node.attribs.role === "tablist") {
      const tabs = TabSet.of(node);
      if (tabs) {
        this.tabs = tabs;
        return;
      }
    }
    // So does a holder of radio buttons' labels, left out or not.
    const radioTabs = firstElementIs(node, RADIO_TAB_PARTS) ? radioTabPanels(node) : undefined;
    if (radioTabs) {
      for (const [panel, label] of radioTabs) this.radioPanels.set(panel, label);
      return;
    }
    if (node.name === "script") {
      writeFormula(scriptFormula(node), out);
      return;
    }
    if (this.dropped(node) || this.shownVotes.has(node) || this.labelsCodeLanguage(node) || isTypesetCopy(node)) return;
    if (node.name === "span" || node.name === "div") {
      const formula = delimitedFormula(node);
      if (formula) return writeFormula(formula, out);
    }
    if (this.captionElements.has(node)) {
      if (this.written.has(node)) return;
      this.written.add(node);
    }
    if (gluedToPrevious(node)) out.inline += " ";
    const { name } = node;
    const push = (block: string): void => {
      flush(out);
      if (block) out.blocks.push(block);
    };
    // Each answer of a question-and-answer page (schema.org's QAPage) is set apart from the question and the others
    // (not from nothing: a break opening a document reads as the start of front matter).
    // Its score and whether it was accepted open it, where the page shows them beside it as a bare number and an icon.
    if (isAnswer(node)) {
      flush(out);
      if (out.blocks.length > 0) out.blocks.push("---");
      const votes = answerVotes(node);
      const accepted = SCHEMA_ACCEPTED_PROPERTY.test(node.attribs.itemprop ?? "");
      if (votes) this.shownVotes.add(votes.element);
      const score = votes ? ` (${votes.count} ${ONE_VOTE.test(votes.count) ? "vote" : "votes"})` : "";
      if (votes || accepted) out.blocks.push(`**${accepted ? "Accepted answer" : "Answer"}**${score}`);
    }
    // A note set as a box of its own (Substack's), one of the notes the text refers to.
    const noteLabel = name === "li" ? undefined : this.footnotes.labelOf(node);
    if (noteLabel !== undefined) return push(this.note(node, noteLabel, scope));
    const radioLabel = this.radioPanels.get(node);
    if (radioLabel) this.boldLine(radioLabel, out);
    if (node.attribs.role === "tabpanel" && this.tabs) {
      const { tabs } = this;
      const tab = tabs.tabOf(node);
      flush(out);
      const unnamed = out.blocks.length;
      if (tab) this.boldLine(tab, out);
      const named = out.blocks.length;
      for (const child of node.children) this.flowNode(child, out, scope);
      flush(out);
      // A panel rendered only when its tab is chosen (Headless UI's, Nextra's) is empty here: its name names nothing.
      if (named > unnamed && out.blocks.length === named) out.blocks.pop();
      // A tab widget inside the panel had its own tabs.
      this.tabs = tabs;
      return;
    }
    // A table built of other elements, its parts named by ARIA's roles (GitBook's and other apps' tables of divs).
    if (node.attribs.role === "table" && name !== "table") {
      const table = this.ariaTable(node);
      if (table) return push(table);
    }
    const level = HEADING_LEVELS[name];
    // Markup that wraps paragraphs or lists in a heading (an unclosed <h2> around the article) holds text, not a title.
    if (level !== undefined && !findElement(node, (element) => TEXT_BLOCKS.has(element.name))) {
      if (scope.inFactBox) this.boldLine(node, out);
      else push(this.heading(node, level));
      return;
    }
    if (name === "aside" && !scope.inFactBox && classHint(node).factBox) {
      flush(out);
      out.blocks.push(...this.flow(node.children, { ...scope, inFactBox: true }));
      return;
    }
    const fact = scope.inFactBox ? factParts(node) : undefined;
    if (fact) {
      flush(out);
      const label = oneLine(this.inlineNodes(fact.label.children, this.boldScope()));
      if (label) out.inline += `${wrap(label.endsWith(":") ? label : `${label}:`, "strong")} `;
      for (const child of fact.value.children) this.flowNode(child, out, scope);
      flush(out);
      return;
    }
    switch (name) {
      case "br":
        out.inline += "\n";
        return;
      case "hr":
        push("---");
        return;
      case "pre":
        push(codeBlock(node));
        return;
      case "textarea":
        push(editorCodeBlock(node));
        return;
      case "table":
        flush(out);
        out.blocks.push(...this.table(node, scope));
        return;
      case "dl":
        push(this.definitions(node, scope));
        return;
      case "ul":
      case "ol":
      case "menu":
        if (scope.listDepth < MAX_LIST_DEPTH) {
          push(this.list(node, { ...scope, listDepth: scope.listDepth + 1 }));
          return;
        }
        break;
      case "cite":
        // Opening a quotation with its text after it, whom the quotation is from (phpBB's, MyBB's and SMF's "alice
        // wrote:" over the post they quote) is a line of its own, where it ran into the quotation's first sentence.
        if (scope.quoteDepth > 0 && opensQuotation(node) && nodeBeside(node) !== null && out.inline.trim() === "") {
          flush(out);
          for (const child of node.children) this.flowNode(child, out, scope);
          flush(out);
          return;
        }
        break;
      case "figure": {
        const quoted = scope.quoteDepth < MAX_QUOTE_DEPTH ? quotationFigure(node) : undefined;
        if (quoted && !this.dropped(quoted.quotation) && !classHint(quoted.quotation).postBody) {
          const from = this.dropped(quoted.caption) ? "" : finish(oneLine(this.inlineNodes(quoted.caption.children, this.inlineScope(" "))));
          // Whom it is from closes the quotation, marked as an attribution unless it is already.
          push(this.quote(quoted.quotation.children, scope, "", from && (ATTRIBUTION_MARK.test(from) ? from : `— ${from}`)));
          return;
        }
        break;
      }
      case "blockquote":
        // One named as a post's body is that post's text, not a quotation (vBulletin's `<blockquote class="postcontent">`).
        if (scope.quoteDepth < MAX_QUOTE_DEPTH && !classHint(node).postBody) {
          push(this.quote(node.children, scope));
          return;
        }
        break;
    }
    if (!scope.inCallout && scope.quoteDepth < MAX_QUOTE_DEPTH && classHint(node).callout) {
      push(this.callout(node, scope));
      return;
    }
    if (name === "code" && isCodeOfRows(node)) {
      push(codeBlock(node));
      return;
    }
    if (name === "code" && isCodeOfBreaks(node)) {
      push(codeBlock(node, true));
      return;
    }
    if (FORMATTING.has(name) || (name === "span" && styledEmphasis(node) !== undefined && !findElement(node, (inner) => BLOCK_ELEMENTS.has(inner.name)))) {
      out.inline += this.inlineNode(node, this.inlineScope(" "));
      return;
    }
    // Containers (div, p, section …) end paragraphs; other inline elements (span, font, custom elements) are transparent.
    const block = BLOCK_ELEMENTS.has(name);
    if (block) flush(out);
    for (const child of node.children) this.flowNode(child, out, scope);
    if (block) flush(out);
  }

  /**
   * A code block's language written beside it (VitePress' `<span class="lang">ts</span>` before the `<pre>`, MDN's
   * header line, a footer after it): its shown text only that language, as the block's classes name it. The block says
   * it already.
   */
  labelsCodeLanguage(element: Element): boolean {
    for (const sibling of [elementFrom(element.next), elementFrom(element.prev, "prev")]) {
      if (sibling?.name !== "pre") continue;
      const language = codeLanguage(sibling);
      if (language && shortText(element, MAX_CODE_HEADER_CHARS) !== undefined && this.plainText(element).toLowerCase() === language) return true;
    }
    return false;
  }

  /** Nodes as a quotation: their blocks, each line marked. */
  quote(nodes: readonly ChildNode[], scope: Scope, title = "", attribution = ""): string {
    const blocks = this.flow(nodes, { ...scope, quoteDepth: scope.quoteDepth + 1 });
    if (title) blocks.unshift(title);
    if (attribution) blocks.push(attribution);
    return blocks.join("\n\n").split("\n").map((line) => (line ? `> ${line}` : ">")).join("\n");
  }

  /**
   * A callout (a note, tip or warning set apart from the text) as a quotation, so where it ends is seen; its title, a
   * first element of a few words with more after it ("Note", "Be careful"), in bold over it.
   */
  callout(element: Element, scope: Scope): string {
    const index = element.children.findIndex((node) => isElement(node) || (isText(node) && node.data.trim() !== ""));
    const first = element.children[index];
    const inside = { ...scope, inCallout: true };
    // Asciidoctor lays a note out as a table of one row: its kind in the first cell, shown or as an icon's title.
    const laidOut = first && isElement(first) && first.name === "table" ? titledRow(first) : undefined;
    if (laidOut) return this.quote(laidOut.body.children, inside, finish(wrap(inlineText(laidOut.title), "strong")));
    // The title is the callout's first element, with no text before it.
    const title = first && isElement(first) && HEADING_LEVELS[first.name] === undefined && !this.dropped(first) ? shortText(first, MAX_CALLOUT_TITLE_CHARS) : undefined;
    const titled = first && isElement(first) && title && !SENTENCE_END.test(title) && elementFrom(first.next) && !runsOn(first);
    // A title of no words is the callout's icon set as text (Zenn's "!", Nextra's "💡"): it says nothing the quote does not.
    const icon = titled && !WORDED.test(title);
    if (titled && !icon) {
      const name = finish(wrap(oneLine(this.inlineNodes(first.children, this.boldScope())), "strong"));
      return this.quote(element.children.slice(index + 1), inside, name);
    }
    // A callout whose shown title is hidden from screen readers is named for them ("Note"): that name is its title.
    const label = oneLine(element.attribs["aria-label"] ?? "");
    const named = label.length <= MAX_CALLOUT_TITLE_CHARS && !SENTENCE_END.test(label) ? finish(wrap(inlineText(label), "strong")) : "";
    return this.quote(icon ? element.children.slice(index + 1) : element.children, inside, named);
  }

  /** An element's text as a line of its own in bold: a tab's name over its panel, a group's title in a box of facts. */
  boldLine(element: Element, out: Flow): void {
    flush(out);
    out.inline += wrap(oneLine(this.inlineNodes(element.children, this.boldScope())), "strong");
    flush(out);
  }

  inlineScope(blockBreak: InlineScope["blockBreak"]): InlineScope {
    return { strong: false, em: false, strike: false, link: false, blockBreak };
  }

  /**
   * Inside a line set in bold (a term, a tab's name, a callout's title): bold and emphasis are not marked again. Italics
   * in bold are markers nested in markers, and an API signature's parameters (Sphinx sets each in <em>) came out as
   * `**dumps(obj, *\*,* *skipkeys=False,*)**`.
   */
  boldScope(): InlineScope {
    return { ...this.inlineScope(" "), strong: true, em: true };
  }

  heading(element: Element, level: number): string {
    const text = oneLine(finish(this.inlineNodes(element.children, this.inlineScope(" "))));
    // A trailing " #" would be read as the heading's closing sequence.
    return text ? `${"#".repeat(level)} ${text.replace(/ (#+)$/, " \\$1")}` : "";
  }

  inlineNodes(nodes: readonly ChildNode[], scope: InlineScope): string {
    let out = "";
    for (const node of nodes) out += (gluedToPrevious(node) ? " " : "") + this.inlineNode(node, scope);
    return out;
  }

  inlineNode(node: ChildNode, scope: InlineScope): string {
    if (isText(node)) return inlineText(node.data);
    if (!isElement(node)) return "";
    if (node.name === "script") return scriptFormula(node) ?? "";
    if (this.dropped(node) || isTypesetCopy(node)) return "";
    const inner = (changes: Partial<InlineScope> = {}): string =>
      this.inlineNodes(node.children, { ...scope, ...changes });
    switch (node.name) {
      case "br":
        return "\n";
      case "img":
        return this.image(node);
      case "math":
        return this.math(node);
      case "span": {
        const formula = delimitedFormula(node);
        if (formula !== undefined) return formula;
        const styled = styledEmphasis(node);
        const strong = styled?.strong === true && !scope.strong;
        const em = styled?.em === true && !scope.em;
        const content = inner({ strong: scope.strong || strong, em: scope.em || em });
        return strong ? wrap(em ? wrap(content, "em") : content, "strong") : em ? wrap(content, "em") : content;
      }
      case "a":
        return scope.link ? inner() : this.link(node, inner({ link: true }));
      case "b":
      case "strong":
        return scope.strong ? inner() : wrap(inner({ strong: true }), "strong");
      case "i":
      case "em":
        return scope.em ? inner() : wrap(inner({ em: true }), "em");
      case "del":
      case "s":
      case "strike":
        return scope.strike ? inner() : wrap(inner({ strike: true }), "strike");
      case "code":
      case "kbd":
      case "samp":
      case "tt": {
        const code = collapseSpaces(withoutNoncharacters(textContent(node)));
        const core = code.trim();
        if (!core) return code;
        return `${code.startsWith(" ") ? " " : ""}${codeSpan(core)}${code.endsWith(" ") ? " " : ""}`;
      }
      case "sup":
      case "sub":
        return scriptCharacters(node) ?? inner();
      case "q":
        // Authors often write the marks themselves around a <q> („<q>…</q>“), and style sheets drop the browser's.
        return quotedByAuthor(node) ? inner() : `"${inner()}"`;
      default:
        return BLOCK_ELEMENTS.has(node.name) ? `${scope.blockBreak}${inner()}${scope.blockBreak}` : inner();
    }
  }

  link(element: Element, content: string): string {
    const href = element.attribs.href;
    const note = this.footnotes.reference(element);
    if (note) return `[^${note}]`;
    const url = href === undefined ? undefined : resolveUrl(href, this.baseUrl);
    const text = settleBrackets(oneLine(content));
    if (this.inNotes > 0 && href?.trim().startsWith("#") && BACK_LINK.test(text)) return "";
    // A heading's permalink (Sphinx's and MkDocs' "¶", GitHub's "#"): a mark that links to its own place on the page,
    // with or without words for screen readers (markdown-it-anchor's "Permalink to “Setup”" beside its "#").
    if (href?.trim().startsWith("#") && (PERMALINK_MARKS.has(text) || PERMALINK_MARKS.has(shortText(element, MAX_MARK_CHARS, isShown) ?? ""))) return "";
    if (ICON.test(text) && (element.attribs.title ?? element.attribs["aria-label"])?.trim()) return "";
    // A link that shows nothing: no text, or only zero-width characters (Docusaurus' heading anchors hold a zero-width space).
    if (INVISIBLE.test(text)) return content.replace(FORMAT_CHARACTERS, "");
    // A heading linked to itself (MDN's `<h2 id="syntax"><a href="#syntax">`) is its text: the link leads nowhere else.
    if (href !== undefined && linksToItsOwnPlace(element, href)) return content;
    if (!url) return content;
    // Lines broken inside the link (a lyric's annotated lines, an address) stay lines, each a link to the same place:
    // a Markdown link's text is one line.
    const lines = content.includes("\n") ? content.split("\n").filter((line) => line.trim() !== "") : [];
    if (lines.length === 0) return linkedText(content, text, url);
    const linked = lines.map((line) => linkedText(line, settleBrackets(oneLine(line)), url)).join("\n");
    return `${LEADING_BREAK.test(content) ? "\n" : ""}${linked}${TRAILING_BREAK.test(content) ? "\n" : ""}`;
  }

  image(element: Element): string {
    // A lazy-loading stand-in shows the picture in the <noscript> after it, described there or by the stand-in; a
    // tracking pixel there is no picture of the image's.
    const fallback = noscriptImage(element);
    const shown = fallback && !isDecoration(fallback) ? fallback : element;
    const alt = oneLine(withoutNoncharacters(shown.attribs.alt || element.attribs.alt || ""));
    // A picture of an emoji (WordPress' and Twitter's emoji images) is the character it shows.
    if (EMOJI.test(alt)) return alt;
    const caption = this.captions.get(element);
    const title = caption && !this.written.has(caption) && !this.dropped(caption) ? withoutDanglingLabel(this.plainText(caption)) : "";
    if (isDecoration(shown) || (!describes(alt) && !title)) return "";
    const url = imageUrl(shown, this.baseUrl);
    if (!url) return "";
    if (caption && title) this.written.add(caption);
    // Alt text that only repeats the caption is said once, in the title.
    const shownAlt = describes(alt) && !(title && title.includes(alt)) ? escapeInline(alt) : "";
    return `![${shownAlt}](${url}${title ? linkTitle(title) : ""})`;
  }

  /**
   * A formula: the TeX source its MathML carries (KaTeX and MathJax write it as an annotation) as `$…$`, `$$…$$` when
   * it is displayed as a block; else its text, without the annotations a browser does not show either.
   */
  math(element: Element): string {
    const formula = mathMlFormula(element);
    if (formula) return formula;
    const parts: string[] = [];
    walk(element, (node) => {
      if (isText(node)) parts.push(node.data);
      return isElement(node) && node.name !== "annotation" && node.name !== "annotation-xml";
    });
    return inlineText(parts.join(""));
  }

  /**
   * An element's text on one line, without what is left out (a credit inside a caption). Its blocks and line breaks
   * (a caption's text over its credit) and words set apart by style only are apart here too.
   */
  plainText(element: Element): string {
    const parts: string[] = [];
    walk(element, (node) => {
      if (node !== element && (breaksLine(node.prev) || breaksLine(node) || gluedToPrevious(node))) parts.push(" ");
      if (isText(node)) parts.push(node.data);
      return isElement(node) && !this.dropped(node);
    });
    return oneLine(withoutNoncharacters(parts.join("")));
  }

  list(element: Element, scope: Scope): string {
    if (element.children.some((child) => isElement(child) && this.footnotes.labelOf(child) !== undefined)) return this.notes(element, scope);
    const items: string[][] = [];
    for (const child of element.children) {
      if (isText(child)) {
        if (child.data.trim()) items.push(this.flow([child], scope));
        continue;
      }
      if (!isElement(child) || this.dropped(child)) continue;
      const blocks = this.flow(child.name === "li" ? child.children : [child], scope);
      // A task's checkbox, a form control left out as such, is its state: `[x]` done, `[ ]` open.
      const checkbox = taskCheckbox(child);
      if (checkbox && blocks.length > 0) blocks[0] = `[${checkbox.attribs.checked !== undefined ? "x" : " "}] ${blocks[0]}`;
      const previous = items[items.length - 1];
      // <ul><li>a</li><ul>…</ul></ul>: a list directly inside a list belongs to the item before it.
      if ((child.name === "ul" || child.name === "ol") && previous) previous.push(...blocks);
      else items.push(blocks);
    }
    const numbered = element.name === "ol" || numberedByStyle(element);
    let number = element.name === "ol" ? startNumber(element.attribs.start) : 1;
    const lines: string[] = [];
    for (const blocks of items) {
      // An item's own number set in an element of its own before its text (Springer's `<span
      // class="u-custom-list-number">1.</span>`, wikiHow's step number under the step's picture) is the number the list
      // writes.
      if (numbered) {
        let at = 0;
        while (at < blocks.length && PICTURE_BLOCK.test(blocks[at] ?? "")) at++;
        if (at < blocks.length - 1 && ownNumber(blocks[at] ?? "") === number) blocks.splice(at, 1);
      }
      // Paragraphs inside an item need a blank line between them; a nested list follows directly (a tight list).
      const body = blocks.reduce((text, block) => (text ? `${text}${LIST_START.test(block) ? "\n" : "\n\n"}${block}` : block), "");
      if (!body) continue;
      const marker = numbered ? `${number++}. ` : "- ";
      lines.push(marker + indentContinuation(body, marker.length));
    }
    return lines.join("\n");
  }

  /**
   * A list of notes that references in the text refer to, as GFM's footnotes: `[^1]: …`, each under its reference's
   * label (an item no reference named, under its number), without its links back to the text.
   */
  notes(list: Element, scope: Scope): string {
    const lines: string[] = [];
    let number = startNumber(list.attribs.start);
    for (const item of list.children) {
      if (!isElement(item) || item.name !== "li") continue;
      const wanted = String(number++);
      if (this.dropped(item)) continue;
      const line = this.note(item, this.footnotes.label(item, wanted), scope);
      if (line) lines.push(line);
    }
    return lines.join("\n");
  }

  /** One note as GFM writes it, `[^label]: …`, without its links back; empty when nothing of it is written. */
  note(element: Element, label: string, scope: Scope): string {
    this.inNotes++;
    // Brackets written around the link back at its end ("[↩]") hold nothing once it is left out.
    const body = this.flow(element.children, scope).join("\n\n").trim().replace(EMPTY_BRACKETS, "");
    this.inNotes--;
    return body ? `[^${label}]: ${indentContinuation(body, 4)}` : "";
  }

  /** A definition list as "**term**" lines followed by ": definition" lines. */
  definitions(element: Element, scope: Scope): string {
    // <dl><div><dt>…<dd>…</div></dl> groups are allowed; their children count as the list's own.
    const items = element.children.flatMap((child) =>
      isElement(child) && child.name === "div" && !this.dropped(child) ? child.children : [child],
    );
    let out = "";
    let previous: "dt" | "dd" | "plain" | undefined;
    // Whether the definitions being read have their term written: one left out leaves them as plain blocks.
    let termed = false;
    for (const item of items) {
      if (!isElement(item)) continue;
      if (item.name === "dt") {
        const term = this.dropped(item) ? "" : oneLine(placeEmphasis(this.inlineNodes(item.children, this.boldScope())));
        termed = term !== "";
        if (!termed) continue;
        out += `${out ? (previous === "dt" ? "\n" : "\n\n") : ""}${settleEscapes(`**${term}**`)}`;
        previous = "dt";
      } else if (item.name === "dd" && !this.dropped(item)) {
        const body = this.flow(item.children, scope).join("\n\n");
        if (!body) continue;
        // A code block is set out as one, under its title (DokuWiki's file name over a <pre>): a ":" before a fence
        // makes it a paragraph in every Markdown without definition lists.
        const plain = !termed || FENCE_START.test(body);
        out += plain ? `${out ? "\n\n" : ""}${body}` : `${out ? (previous === "plain" ? "\n\n" : "\n") : ""}: ${indentContinuation(body, 2)}`;
        previous = plain ? "plain" : "dd";
      }
    }
    return out;
  }

  /**
   * A GFM table; layout tables (one column, one row, tables nested in cells, a layout grid: isLayoutGrid) render their
   * cells as blocks instead, because a grid of page fragments reads worse than the fragments.
   */
  table(element: Element, scope: Scope): string[] {
    const caption = element.children.find((child): child is Element => isElement(child) && child.name === "caption");
    const blocks = caption && !this.dropped(caption) ? this.flow(caption.children, scope) : [];
    // In a grid, rows and cells drop only when hidden: a class-name guess on a cell would shift the columns.
    const rowElements = tableRows(element).filter((row) => !isHidden(row));
    const rows = rowElements.map((row) =>
      row.children.filter((cell): cell is Element => isElement(cell) && (cell.name === "td" || cell.name === "th") && !isHidden(cell)),
    );
    const code = numberedCodeTable(rows);
    if (code !== undefined) return [...blocks, code];
    let width = 0;
    for (const cells of rows) width = Math.max(width, cells.reduce((sum, cell) => sum + colspan(cell), 0));
    const nested = rows.some((cells) => cells.some((cell) => findElement(cell, (e) => e.name === "table")));
    if (width <= 1 || rows.length <= 1 || nested || isLayoutGrid(element, rows, width, blocks.length > 0)) {
      // Laid out as blocks, rows and cells have no columns to keep: what pruning left out stays out.
      for (const [index, cells] of rows.entries()) {
        if (this.skip(rowElements[index] as Element)) continue;
        let codeCells: Element[] | undefined; // the row's cells holding a <pre>, found once it has a cell of numbers
        const besideCode = (cell: Element): boolean =>
          (codeCells ??= cells.filter((other) => findElement(other, (element) => element.name === "pre") !== undefined)).some((other) => other !== cell);
        for (const cell of cells) {
          if (!this.skip(cell) && !(countsLines(cell) && besideCode(cell))) blocks.push(...this.flow(cell.children, scope));
        }
      }
      return blocks;
    }
    const table = this.grid(rows);
    if (table) blocks.push(table);
    return blocks;
  }

  /** Rows of cells as a Markdown table, each cell's text on its lines. */
  grid(rows: readonly (readonly Element[])[]): string {
    const grid = tableGrid(rows, (cell) =>
      finish(this.inlineNodes(cell.children, this.inlineScope("\n")))
        .split("\n")
        .map((line) => line.replace(/ {2,}/g, " ").trim())
        .filter(Boolean)
        .join("\n"),
    );
    // A row with nothing in any cell (a picture left out, spacer rows) says nothing; the header row stays as the columns' row.
    return markdownTable(
      grid.filter((row, index) => index === 0 || row.some((cell) => cell !== "")),
      rows[0]?.flatMap((cell) => Array.from({ length: colspan(cell) }, () => cellAlignment(cell))),
    );
  }

  /**
   * An element in ARIA's table role as a Markdown table: its rows (role row, maybe in a rowgroup) and their cells (cell,
   * gridcell, columnheader, rowheader), hidden ones left out as in a table's grid. "" when it is no grid of two rows and
   * two columns, or a cell holds a table: then its parts are read as blocks.
   */
  ariaTable(element: Element): string {
    const rows: Element[][] = [];
    const addRow = (row: Element): void => {
      if (isHidden(row)) return;
      rows.push(row.children.filter((cell): cell is Element => isElement(cell) && ARIA_CELLS.has(cell.attribs.role ?? "") && !isHidden(cell)));
    };
    for (const child of element.children) {
      if (!isElement(child) || isHidden(child)) continue;
      if (child.attribs.role === "row") addRow(child);
      else if (child.attribs.role === "rowgroup") for (const row of child.children) if (isElement(row) && row.attribs.role === "row") addRow(row);
    }
    let width = 0;
    for (const cells of rows) width = Math.max(width, cells.length);
    if (rows.length < 2 || width < 2 || rows.some((cells) => cells.some((cell) => findElement(cell, (inner) => inner.name === "table" || inner.attribs.role === "table")))) return "";
    return this.grid(rows);
  }
}
