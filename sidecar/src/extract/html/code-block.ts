import type { Element } from "domhandler";
import { elementChildren, elementFrom, findElement, firstShown, isElement, isText, nodeBeside, shortText, textContent, walk } from "../dom.ts";
import { withoutNoncharacters } from "../markdown-emphasis.ts";
import { fencedBlock } from "../markdown-syntax.ts";
import { isHtmlSpace } from "../whitespace.ts";
import { isHidden } from "./visibility.ts";

/** Code blocks: a `<pre>`'s lines as a highlighter wrote them, its language, and the line numbers beside or in it. */

/**
 * Languages that say the block has none, or that the highlighter is to guess it (Discourse's `lang-auto`), or that it
 * is a program's output in a terminal's colours (MyST-NB's `highlight-myst-ansi` around a notebook cell's output).
 */
const NO_LANGUAGE = new Set(["none", "plaintext", "default", "auto", "nohighlight", "no-highlight", "myst-ansi"]);
/**
 * The classes that name a code block's language on the code, the pre or its wrapper (Jupyter's nbconvert writes hl-x,
 * MediaWiki's SyntaxHighlight `mw-highlight-lang-x`).
 */
const LANGUAGE_CLASS = /^(?:language|lang|hl|highlight(?:-source)?|mw-highlight-lang)-([\w+#.-]+)$/i;
/**
 * Languages a class names by itself, as rustdoc (`<pre class="rust">`) and highlight.js before version 10
 * (`<code class="python">`) write them, and pandoc after its own class (`<code class="sourceCode python">`): a closed
 * list, without names that are also words a block may be named for (text, output, go, c, r).
 */
const BARE_LANGUAGES = new Set([
  "bash", "clojure", "cpp", "csharp", "css", "dart", "diff", "dockerfile", "elixir", "erlang", "fsharp", "golang", "graphql",
  "haskell", "html", "ini", "java", "javascript", "json", "julia", "kotlin", "latex", "lua", "makefile", "markdown", "nginx",
  "objectivec", "ocaml", "perl", "php", "powershell", "python", "ruby", "rust", "scala", "scss", "shell", "sql", "swift",
  "toml", "typescript", "xml", "yaml", "zig",
]);
/** A language's name as pandoc writes it after `sourceCode` (r, python, cpp, bash). */
const PANDOC_LANGUAGE = /^[a-z][\w+#-]{0,30}$/i;
/** On the pre, a language's name is one lower-case word: the pre's other classes are styles (`code-with-copy`, `numberLines`). */
const PANDOC_PRE_LANGUAGE = /^[a-z][a-z\d+#]{0,30}$/;
/** Jupyter's lexer names for Python with its prompts (hl-ipython3): Python, as Markdown renderers know it. */
const IPYTHON = /^ipython\d?$/;
/** SyntaxHighlighter's class, which MDN and many blogs write: `brush: js`. */
const BRUSH = /(?:^|\s)brush:\s*([\w+#.-]+)/i;
/**
 * The attributes a code block's language is named in: highlighters' data-lang and data-language, Atlassian's
 * data-code-lang, Medium's data-code-block-lang, Google's developer sites' syntax.
 */
const languageAttribute = ({ attribs }: Element): string | undefined =>
  attribs["data-lang"] ?? attribs["data-language"] ?? attribs["data-code-lang"] ?? attribs["data-code-block-lang"] ?? attribs.syntax;
/** Sphinx names a block's language on a wrapper further out (`highlight-python` around `highlight`, and its line numbers' table). */
const OUTER_LANGUAGE_CLASS = /^highlight-([\w+#.-]+)$/i;
/** Around the pre's wrapper, Prism's and Rouge's name for the language too. */
const WRAPPED_LANGUAGE_CLASS = /^(?:language|highlight)-([\w+#.-]+)$/i;
const MAX_LANGUAGE_WRAPPER_LEVELS = 6;

/**
 * File extensions that name a language: what a block titled with the file it shows is written in (GitBook's and
 * Docusaurus' titles, Expressive Code's captions). A closed list: `.txt`, `.env`, `.lock` name no language.
 */
const EXTENSION_LANGUAGES = new Map([
  ["js", "javascript"], ["mjs", "javascript"], ["cjs", "javascript"], ["jsx", "jsx"], ["ts", "typescript"], ["mts", "typescript"],
  ["tsx", "tsx"], ["py", "python"], ["rb", "ruby"], ["go", "go"], ["rs", "rust"], ["java", "java"], ["kt", "kotlin"],
  ["swift", "swift"], ["c", "c"], ["h", "c"], ["cc", "cpp"], ["cpp", "cpp"], ["hpp", "cpp"], ["cs", "csharp"], ["php", "php"],
  ["sh", "bash"], ["bash", "bash"], ["zsh", "bash"], ["ps1", "powershell"], ["json", "json"], ["yaml", "yaml"], ["yml", "yaml"],
  ["toml", "toml"], ["xml", "xml"], ["html", "html"], ["css", "css"], ["scss", "scss"], ["sql", "sql"], ["md", "markdown"],
  ["graphql", "graphql"], ["lua", "lua"], ["dart", "dart"], ["ex", "elixir"], ["exs", "elixir"], ["hs", "haskell"],
  ["scala", "scala"], ["jl", "julia"], ["vue", "vue"], ["svelte", "svelte"], ["tf", "hcl"], ["proto", "protobuf"],
]);
/**
 * Languages known by name, which cmark-gfm's `--github-pre-lang` (PyPI's readme renderer) writes in the pre's `lang`:
 * elsewhere that attribute names a human language (`lang="en"`), so only these count there.
 */
const NAMED_LANGUAGES: ReadonlySet<string> = new Set(EXTENSION_LANGUAGES.values());
/** Files whose whole name is their language's. */
const NAME_LANGUAGES = new Map([["dockerfile", "dockerfile"], ["makefile", "makefile"]]);
/** A title is one line: a file's path, not a paragraph that names one. */
const MAX_TITLE_CHARS = 120;
/** The title stands before the pre, or before the box or two it is wrapped in (its content box, its frame). */
const MAX_TITLE_LEVELS = 2;

/** The language a file's name or path says it is written in (`event.json`, `src/main.rs`, `Dockerfile`). */
function fileLanguage(path: string): string | undefined {
  if (/\s/.test(path)) return undefined;
  const name = path.slice(path.lastIndexOf("/") + 1).toLowerCase();
  const dot = name.lastIndexOf(".");
  return dot > 0 ? EXTENSION_LANGUAGES.get(name.slice(dot + 1)) : NAME_LANGUAGES.get(name);
}

/** A title is the first of the elements just before that shows text, past a copy button or an empty icon or two. */
const MAX_TITLE_SIBLINGS = 3;

/** The text of the element before `at` that shows any (undefined when it is long), "" when none does. */
function textBefore(at: Element): string | undefined {
  let title = elementFrom(at.prev, "prev");
  for (let seen = 0; title && seen < MAX_TITLE_SIBLINGS; seen++, title = elementFrom(title.prev, "prev")) {
    if (title.name === "button") continue;
    const text = shortText(title, MAX_TITLE_CHARS);
    if (text !== "") return text;
  }
  return "";
}

/**
 * The language of the file a code block is titled with: the whole text of the element just before the pre, or just
 * before a wrapper around it, when that text is a file's name (`event.json`, `src/main.rs`).
 */
function titleLanguage(pre: Element): string | undefined {
  let at: Element = pre;
  for (let level = 0; level <= MAX_TITLE_LEVELS; level++) {
    const text = textBefore(at);
    if (text !== "") return text && fileLanguage(text);
    if (!at.parent || !isElement(at.parent)) return undefined;
    at = at.parent;
  }
  return undefined;
}

/** Inside <pre>, these end a line even when the markup has no newline (highlighters that emit one element per line). */
const LINE_ELEMENTS = new Set(["div", "p", "li", "tr"]);
/**
 * The attribute Atlassian's design system (Confluence's, Jira's and Bitbucket's code blocks) marks each line of code
 * with: a `<span>` in a `<code>` with no `<pre>` around it and no newline between the lines, set apart by style.
 */
const CODE_ROW = "data-ds--code--row";

/** Whether a `<code>` outside a `<pre>` is a block of code set out a line to a row (Atlassian's), not code in a sentence. */
export function isCodeOfRows(code: Element): boolean {
  const first = firstShown(code);
  return first !== undefined && isElement(first) && first.attribs[CODE_ROW] !== undefined;
}

/**
 * Whether a `<code>` outside a `<pre>` is a block of code set out in line breaks, its indentation in no-break spaces:
 * alone in its parent, with a `<br>` in it (PHP's highlight_string(), as php.net and PHP sites show examples; forums'
 * code boxes). One in a sentence is inline code, and one without a break a line of it.
 */
export function isCodeOfBreaks(code: Element): boolean {
  const { parent } = code;
  if (!parent || firstShown(parent) !== code || nodeBeside(code) !== null) return false;
  return findElement(code, (inner) => inner.name === "br") !== undefined;
}

/** A line's number written in its own element: digits, maybe padded with spaces (` 9`, `10 `), on the line. */
const LINE_NUMBER = /^[ \t\u00a0]*(\d{1,6})[ \t\u00a0]*$/;
/** A line number's element holds its text, or one element holding it (a link to the line); read this far at most. */
const MAX_NUMBER_ELEMENT_CHARS = 16;

function classLanguage(element: Element, pattern: RegExp): string | undefined {
  for (const token of (element.attribs.class ?? "").split(/\s+/)) {
    const language = pattern.exec(token)?.[1]?.toLowerCase();
    if (language && !NO_LANGUAGE.has(language)) return IPYTHON.test(language) ? "python" : language;
  }
  return undefined;
}

/**
 * Languages whose names are also short words, read only as the whole class of a <code> in a pre named nothing:
 * highlight.js before version 10 named a block by its language alone (Habr's `<pre><code class="go">`); a pre named
 * otherwise says what the block is (`<pre class="output"><code class="c">`).
 */
const WORD_LANGUAGES = new Set(["go", "c", "r"]);

function bareLanguage(element: Element): string | undefined {
  const tokens = (element.attribs.class ?? "").split(/\s+/);
  // Pandoc (R Markdown, Quarto) names a code element `sourceCode` and its language, whatever that is (`sourceCode r`);
  // pkgdown names the pre so, beside its own classes (`sourceCode r`, Quarto's `code-with-copy`, pandoc's `numberLines`).
  const pandoc = tokens.includes("sourceCode") ? (element.name === "code" ? PANDOC_LANGUAGE : element.name === "pre" ? PANDOC_PRE_LANGUAGE : undefined) : undefined;
  for (const token of tokens) {
    const lower = token.toLowerCase();
    if (BARE_LANGUAGES.has(lower) || (pandoc && token !== "sourceCode" && pandoc.test(token))) return lower;
  }
  return undefined;
}

/** A pre in a table cell stands in the cell itself or in the one box the cell holds (Pygments' `<td class="code"><div><pre>`). */
const MAX_CELL_LEVELS = 2;

/**
 * The table a code block stands in beside a cell counting its lines (Pygments' `highlighttable`, which MkDocs and
 * Sphinx write for numbered blocks): the block's frame, named around it as a pre is (MkDocs' `language-python`).
 */
function numberingTable(pre: Element): Element | undefined {
  let cell = pre.parent;
  for (let level = 1; level < MAX_CELL_LEVELS && cell && isElement(cell) && cell.name !== "td"; level++) cell = cell.parent;
  const row = cell && isElement(cell) && cell.name === "td" ? cell.parent : undefined;
  if (!row || !isElement(row) || row.name !== "tr") return undefined;
  // The row stands in the table or in its body.
  const table = row.parent && isElement(row.parent) && row.parent.name !== "table" ? row.parent.parent : row.parent;
  if (!table || !isElement(table) || table.name !== "table") return undefined;
  return row.children.some((other) => other !== cell && isElement(other) && other.name === "td" && countsLines(other)) ? table : undefined;
}

/**
 * The language of a code block: language-x / lang-x / highlight-x classes or data-lang, on the code, the pre or the
 * pre's wrapper (around Pygments' numbered table, the table's); else a language's bare name on the code or the pre, or
 * a known one in the pre's `lang`; else a language-x class on the box around the wrapper, or a highlight-x class
 * further out; else the file it is titled with.
 */
export function codeLanguage(pre: Element): string | undefined {
  // The code's element: a <code>, or what else holds all of the pre's code (Medium's <span data-code-block-lang>).
  const only = elementChildren(pre, 1)?.[0];
  const code = only ?? pre.children.find((child): child is Element => isElement(child) && child.name === "code");
  const frame = numberingTable(pre) ?? pre;
  const wrapper = frame.parent && isElement(frame.parent) ? frame.parent : undefined;
  for (const element of [code, pre, wrapper]) {
    if (!element) continue;
    const data = languageAttribute(element)?.trim() ?? BRUSH.exec(element.attribs.class ?? "")?.[1];
    if (data) return data.toLowerCase();
    const language = classLanguage(element, LANGUAGE_CLASS);
    if (language) return language;
  }
  for (const element of [code, pre]) {
    const language = element && bareLanguage(element);
    if (language) return language;
  }
  // Hexo names the frame of its numbered table `highlight` and the language (`<figure class="highlight bash">`).
  const frameLanguage = wrapper && frame !== pre && wrapper.attribs.class?.split(/\s+/).includes("highlight") ? bareLanguage(wrapper) : undefined;
  if (frameLanguage) return frameLanguage;
  const word = code?.name === "code" && pre.attribs.class === undefined ? code.attribs.class?.trim().toLowerCase() : undefined;
  if (word && WORD_LANGUAGES.has(word)) return word;
  const named = pre.attribs.lang?.trim().toLowerCase();
  if (named && (BARE_LANGUAGES.has(named) || NAMED_LANGUAGES.has(named))) return named;
  let outer = wrapper?.parent;
  for (let level = 0; level < MAX_LANGUAGE_WRAPPER_LEVELS && outer && isElement(outer); level++, outer = outer.parent) {
    // Jekyll's Rouge names it one box further out than the wrapper (`language-ruby highlighter-rouge` around `highlight`);
    // a page's `lang-en` there names its human language.
    const language = classLanguage(outer, level === 0 ? WRAPPED_LANGUAGE_CLASS : OUTER_LANGUAGE_CLASS);
    if (language) return language;
  }
  return titleLanguage(pre);
}

/**
 * The text of an element holding only text, or elements holding only text one level down; undefined for anything
 * else or past MAX_NUMBER_ELEMENT_CHARS, so an element holding a whole line costs a few of its characters.
 */
function shortFlatText(element: Element, levels = 1): string | undefined {
  let text = "";
  for (const child of element.children) {
    if (isText(child)) text += child.data;
    else if (isElement(child) && levels > 0) {
      const inner = shortFlatText(child, levels - 1);
      if (inner === undefined) return undefined;
      text += inner;
    } else return undefined;
    if (text.length > MAX_NUMBER_ELEMENT_CHARS) return undefined;
  }
  return text;
}

/**
 * The lines of code in an element, as shown: text with its whitespace, a line ended at each <br> and after each
 * element a highlighter writes per line; hidden elements left out. Line numbers written inline are left out too: an
 * element opening every line that holds text, holding only that line's number, counted from one (Hugo's
 * `<span class="ln">`, Pygments' `linenos`); a block of numbers alone keeps them, it has nothing else to show.
 */
export function codeLines(element: Element, flowing = false): string {
  const parts: string[] = [];
  const numbers: Array<{ part: number; line: number; value: number }> = [];
  let line = 0;
  let lineBlank = true; // nothing but spaces on the current line yet
  let lineText = false; // the current line has text besides its number
  let unnumbered = false; // a line's text came before any number on it
  let beside = false; // some line has text besides its number
  const push = (text: string, number?: number): void => {
    if (number !== undefined) numbers.push({ part: parts.length, line, value: number });
    parts.push(text);
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code === 0x0a) {
        line++;
        lineBlank = true;
        lineText = false;
      } else if (!lineText && !isHtmlSpace(code) && code !== 0xa0) {
        lineBlank = false;
        if (number !== undefined) continue;
        lineText = true;
        beside = true;
        if (numbers[numbers.length - 1]?.line !== line) unnumbered = true;
      }
    }
  };
  const endsLine = (): boolean => parts.length === 0 || (parts[parts.length - 1] ?? "").endsWith("\n");
  walk(
    element,
    (node) => {
      // Outside a <pre>, a run of whitespace shows as one space, as the browser shows it; only <br> ends a line.
      if (isText(node)) push(flowing ? node.data.replace(HTML_WHITESPACE_RUN, " ") : node.data);
      if (!isElement(node)) return false;
      if (node.name === "br") push("\n");
      // A button in the block is its control (docsify's "Copy to clipboard" inside the <pre>), not a line of code.
      if (node.name === "br" || node.name === "button" || isHidden(node)) return false;
      // A list of the numbers from one up in the block beside its code is the lines' numbers, set beside them by style
      // (the prettify plugin's `<ul class="pre-numbering">` after the `<code>`, as CSDN writes it).
      if ((node.name === "ul" || node.name === "ol") && node.parent === element && countsLines(node)) return false;
      if (lineBlank && !unnumbered) {
        const text = shortFlatText(node);
        const number = text === undefined ? undefined : LINE_NUMBER.exec(text)?.[1];
        if (text !== undefined && number !== undefined) {
          push(text, Number(number));
          return false;
        }
      }
      return true;
    },
    (node) => {
      if (isElement(node) && (LINE_ELEMENTS.has(node.name) || node.attribs[CODE_ROW] !== undefined) && !endsLine()) push("\n");
    },
  );
  if (!unnumbered && beside && numbers.length >= 2 && numbers.every((entry, i) => entry.value === i + 1)) {
    for (const entry of numbers) parts[entry.part] = "";
  }
  const shown = flowing ? parts.join("").replace(SPACE_AT_LINE_EDGE, "") : parts.join("");
  // HTML drops the newline right after <pre>.
  return withoutNoncharacters(shown).replace(/\u00a0/g, " ").replace(/^\n/, "").trimEnd();
}

const HTML_WHITESPACE_RUN = /[\t\n\f\r ]+/g;
/** Outside a <pre> a line shows no space at either end (a no-break space stays: it is the indentation). */
const SPACE_AT_LINE_EDGE = /^ +| +$/gm;

/**
 * A `<pre>`, or a `<code>` set out in rows (isCodeOfRows) or in line breaks (isCodeOfBreaks, `flowing`), as a fenced
 * code block in its language; "" when it shows nothing.
 */
export function codeBlock(pre: Element, flowing = false): string {
  const code = codeLines(pre, flowing);
  return code.trim() ? fencedBlock(code, codeLanguage(pre)) : "";
}

/** A code editor's textarea (visibility.ts) as a fenced code block: its text is the code as written. */
export function editorCodeBlock(textarea: Element): string {
  // HTML drops the newline right after <textarea>, as after <pre>.
  const code = withoutNoncharacters(textContent(textarea)).replace(/^\n/, "").trimEnd();
  return code.trim() ? fencedBlock(code) : "";
}

/** A line number named in markup: `data-line-number="12"`. */
const LINE_NUMBER_ATTRIBUTE = /^\d{1,7}$/;

/**
 * Code set out as a table, a row to a line: a cell naming its line's number in `data-line-number` (GitHub's file
 * views and embedded gists; the number shown by style) beside a cell of code. Such a table is one code block. The
 * numbers go up by one from any line (a snippet of lines 10 to 20); a number cell shows nothing or its number.
 * Undefined for any other table.
 */
export function numberedCodeTable(rows: readonly (readonly Element[])[]): string | undefined {
  const lines: string[] = [];
  let first = 0;
  for (const [index, cells] of rows.entries()) {
    const [number, code] = cells;
    if (cells.length !== 2 || !number || !code) return undefined;
    const named = number.attribs["data-line-number"] ?? "";
    if (!LINE_NUMBER_ATTRIBUTE.test(named)) return undefined;
    const value = Number(named);
    if (index === 0) first = value;
    else if (value !== first + index) return undefined;
    const shown = shortText(number, named.length);
    if (shown !== "" && shown !== named) return undefined;
    lines.push(codeLines(code));
  }
  const code = lines.join("\n").trimEnd();
  return code.trim() ? fencedBlock(code) : undefined;
}

/**
 * Whether a cell holds nothing but the numbers from one up, in order, one to a line: beside a code block, its line
 * numbers (Pygments', Hugo's and Hexo's tables of two cells, a list in the code's block). Read up to its first
 * character that is not a digit or a space, so a cell of text costs a few characters.
 */
export function countsLines(cell: Element): boolean {
  let lines = 0;
  let number = ""; // the digits of the number being read
  let holds = true;
  const end = (): void => {
    if (number === "" || !holds) return;
    holds = number === String(lines + 1);
    lines++;
    number = "";
  };
  walk(
    cell,
    (node) => {
      if (!holds) return false;
      if (isText(node)) {
        for (let i = 0; i < node.data.length && holds; i++) {
          const code = node.data.charCodeAt(i);
          if (code >= 0x30 && code <= 0x39) number += node.data[i];
          else if (isHtmlSpace(code)) end();
          else holds = false;
        }
        return false;
      }
      // Lines end at <br> as well (Hexo's gutter: a <span> for each number, a <br> after it).
      if (isElement(node) && node.name === "br") end();
      return true;
    },
    // ...and with an element a line is written in (a list's item to a number).
    (node) => {
      if (isElement(node) && LINE_ELEMENTS.has(node.name)) end();
    },
  );
  end();
  return holds && lines >= 2;
}
