import type { Element } from "domhandler";
import { elementFrom, findElement, isText, textContent } from "../dom.ts";
import { withoutNoncharacters } from "../markdown-emphasis.ts";
import { oneLine } from "../whitespace.ts";

/** Formulas written as their TeX source: `$…$` in a line, `$$…$$` displayed. */

/** How MathML names a TeX annotation. */
const TEX_ENCODING = /^\s*application\/(?:x-)?(?:la)?tex\s*$/i;
/**
 * What TeX written as it is would turn into Markdown or HTML where math is not rendered: a link's target, a tag, an
 * autolink, a code span, the dollar sign that ends it. Such a source (or a page's trick) is shown as text, escaped.
 */
const MARKDOWN_IN_TEX = /\]\(|<[A-Za-z/!?]|[`$]/;
/** MathJax 2 keeps each formula's source in a script after it: `math/tex`, `math/tex; mode=display` when displayed. */
const TEX_SCRIPT = /^\s*math\/tex\s*(;\s*mode\s*=\s*display\s*)?$/i;
/**
 * What MathJax 2 sets before a formula's script: its preview, and the typeset formula in each output's box
 * (MathJax, MathJax_CHTML, MathJax_SVG, MathJax_MathML, their _Display blocks, CommonHTML's mjx-chtml).
 */
const TYPESET_CLASS = /(?:^|\s)(?:MathJax(?:_\w+)?|mjx-chtml)(?:\s|$)/;
/** A formula has two such copies before its script at most (the preview, then the typeset box), so a run of them is looked past this far. */
const MAX_TYPESET_COPIES = 2;

function texFormula(tex: string, displayed: boolean): string | undefined {
  const source = oneLine(withoutNoncharacters(tex));
  if (!source || MARKDOWN_IN_TEX.test(source)) return undefined;
  return displayed ? `$$${source}$$` : `$${source}$`;
}

/** A MathML formula's TeX source, when its MathML carries one (KaTeX and MathJax write it as an annotation). */
export function mathMlFormula(math: Element): string | undefined {
  const annotation = findElement(math, (inner) => inner.name === "annotation" && TEX_ENCODING.test(inner.attribs.encoding ?? ""));
  return annotation ? texFormula(textContent(annotation), math.attribs.display === "block") : undefined;
}

/** The formula in a MathJax 2 source script; undefined for any other script. */
export function scriptFormula(script: Element): string | undefined {
  const type = TEX_SCRIPT.exec(script.attribs.type ?? "");
  return type ? texFormula(textContent(script), type[1] !== undefined) : undefined;
}

/**
 * Pandoc (R Markdown, Quarto, with MathJax, their default) sets a formula's source in a span named `math inline` or
 * `math display`, between TeX's delimiters `\(…\)` or `\[…\]`, for MathJax to typeset in the browser; Sphinx in a span
 * or, displayed, a div named `math notranslate nohighlight`; Springer Nature in a span named `mathjax-tex`, displayed
 * between `$$`.
 */
const DELIMITED_FORMULA_CLASS = /(?:^|\s)(?:math|mathjax-tex)(?:\s|$)/;

/** The formula in such an element, which holds its source as one text; undefined for any other element. */
export function delimitedFormula(element: Element): string | undefined {
  const [source, ...rest] = element.children;
  if (!source || rest.length > 0 || !isText(source) || !DELIMITED_FORMULA_CLASS.test(element.attribs.class ?? "")) return undefined;
  const text = source.data.trim();
  const displayed = (text.startsWith("\\[") && text.endsWith("\\]")) || (text.length > 4 && text.startsWith("$$") && text.endsWith("$$"));
  if (!displayed && !(text.startsWith("\\(") && text.endsWith("\\)"))) return undefined;
  return texFormula(text.slice(2, -2), displayed);
}

/**
 * Whether an element is MathJax 2's preview or typeset copy of the formula whose source script follows it, with only
 * such copies between: the script says the formula in TeX, the copy in the glyphs of its fonts.
 */
export function isTypesetCopy(element: Element): boolean {
  if (!TYPESET_CLASS.test(element.attribs.class ?? "")) return false;
  let next = elementFrom(element.next);
  for (let copies = 1; next && copies < MAX_TYPESET_COPIES && TYPESET_CLASS.test(next.attribs.class ?? ""); copies++) next = elementFrom(next.next);
  return next?.name === "script" && scriptFormula(next) !== undefined;
}
