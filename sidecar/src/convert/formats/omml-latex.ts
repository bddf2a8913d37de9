import type { Element } from "domhandler";
import { isElement, textContent } from "../../extract/dom.ts";
import { childElements } from "./child-elements.ts";
import { localName } from "./local-name.ts";
import { prefixedAttribute } from "./prefixed-attribute.ts";

/**
 * Office Math (OMML, m:oMath) as LaTeX. Covers the structures Word's equation editor writes: fractions,
 * scripts, radicals, n-ary operators, delimiters, matrices, equation arrays, accents, bars, functions, limits,
 * group characters, boxes and text runs. Unknown elements pass their content through, so nothing is dropped.
 */

const SYMBOLS: Record<string, string> = {
  α: "\\alpha", β: "\\beta", γ: "\\gamma", δ: "\\delta", ε: "\\epsilon", ϵ: "\\epsilon", ζ: "\\zeta", η: "\\eta", θ: "\\theta",
  ι: "\\iota", κ: "\\kappa", λ: "\\lambda", μ: "\\mu", ν: "\\nu", ξ: "\\xi", π: "\\pi", ρ: "\\rho", σ: "\\sigma", τ: "\\tau",
  υ: "\\upsilon", φ: "\\phi", ϕ: "\\phi", χ: "\\chi", ψ: "\\psi", ω: "\\omega", Γ: "\\Gamma", Δ: "\\Delta", Θ: "\\Theta",
  Λ: "\\Lambda", Ξ: "\\Xi", Π: "\\Pi", Σ: "\\Sigma", Φ: "\\Phi", Ψ: "\\Psi", Ω: "\\Omega",
  "∞": "\\infty", "±": "\\pm", "∓": "\\mp", "×": "\\times", "÷": "\\div", "·": "\\cdot", "⋅": "\\cdot", "≤": "\\leq",
  "≥": "\\geq", "≠": "\\neq", "≈": "\\approx", "≡": "\\equiv", "∝": "\\propto", "∼": "\\sim", "→": "\\rightarrow",
  "←": "\\leftarrow", "↔": "\\leftrightarrow", "⇒": "\\Rightarrow", "⇔": "\\Leftrightarrow", "∈": "\\in", "∉": "\\notin",
  "⊂": "\\subset", "⊆": "\\subseteq", "∪": "\\cup", "∩": "\\cap", "∅": "\\emptyset", "∀": "\\forall", "∃": "\\exists",
  "∂": "\\partial", "∇": "\\nabla", "…": "\\ldots", "⋯": "\\cdots", "°": "^{\\circ}", "′": "'", "−": "-", "∗": "*",
};

/** TeX's special characters, escaped where they stand for themselves. */
const SPECIAL: Record<string, string> = { "\\": "\\backslash ", "{": "\\{", "}": "\\}", $: "\\$", "%": "\\%", "#": "\\#", "&": "\\&", _: "\\_", "^": "\\hat{}", "~": "\\sim " };

const NARY: Record<string, string> = {
  "∑": "\\sum", "∏": "\\prod", "∐": "\\coprod", "∫": "\\int", "∬": "\\iint", "∭": "\\iiint", "∮": "\\oint", "⋃": "\\bigcup",
  "⋂": "\\bigcap", "⋁": "\\bigvee", "⋀": "\\bigwedge", "⨁": "\\bigoplus", "⨂": "\\bigotimes",
};

const ACCENTS: Record<string, string> = {
  "\u0302": "\\hat", "\u0303": "\\tilde", "\u0304": "\\bar", "\u0305": "\\overline", "\u0307": "\\dot", "\u0308": "\\ddot",
  "\u20d7": "\\vec", "\u0301": "\\acute", "\u0300": "\\grave", "\u0306": "\\breve", "\u030c": "\\check",
};

const FUNCTIONS = new Set(["sin", "cos", "tan", "cot", "sec", "csc", "sinh", "cosh", "tanh", "arcsin", "arccos", "arctan", "log", "ln", "exp", "lim", "max", "min", "det", "sup", "inf", "gcd", "deg", "dim", "ker", "arg"]);

const DELIMITERS: Record<string, string> = { "{": "\\{", "}": "\\}", "⟨": "\\langle", "⟩": "\\rangle", "‖": "\\|", "⌈": "\\lceil", "⌉": "\\rceil", "⌊": "\\lfloor", "⌋": "\\rfloor", "|": "|" };

/** A property's m:val (m:chr m:val="∑" inside m:naryPr …), if set. */
function property(element: Element, properties: string, name: string): string | undefined {
  const [props] = childElements(element, properties);
  const [prop] = props ? childElements(props, name) : [];
  return prop && (prefixedAttribute(prop.attribs, "val") ?? prop.attribs.val ?? "");
}

function isOn(value: string | undefined): boolean {
  return value !== undefined && value !== "0" && value !== "off" && value !== "false";
}

function texText(text: string, plain: boolean): string {
  let out = "";
  for (const char of text) out += SPECIAL[char] ?? (plain ? char : (SYMBOLS[char] !== undefined ? `${SYMBOLS[char]} ` : char));
  return out;
}

function delimiter(char: string, side: "\\left" | "\\right"): string {
  return `${side}${char === "" ? "." : (DELIMITERS[char] ?? char)}`;
}

/** A group's argument, braced. */
const group = (element: Element | undefined): string => `{${element ? children(element).trim() : ""}}`;
const part = (element: Element, name: string): Element | undefined => childElements(element, name)[0];

function children(element: Element): string {
  let out = "";
  for (const child of element.children) {
    if (isElement(child)) out += node(child);
  }
  return out;
}

/** A run: its text, upright (\text) when it is normal text rather than math. */
function run(element: Element): string {
  const text = childElements(element, "t").map(textContent).join("");
  if (!text) return "";
  // m:nor marks normal text; a Word run (w:r) inside an equation is text too, as is a phrase of words.
  const normal = isOn(property(element, "rPr", "nor")) || element.name.startsWith("w:");
  // A word starts where no letter precedes it; tried from each of its letters, a long run was read once per letter.
  if (normal || /(?<![A-Za-z])[A-Za-z]{2,}\s+[A-Za-z]{2,}/.test(text)) return `\\text{${texText(text, true)}}`;
  const word = text.trim();
  if (FUNCTIONS.has(word)) return `\\${word} `;
  return texText(text, false);
}

function nary(element: Element): string {
  const char = property(element, "naryPr", "chr") || "∫";
  const operator = NARY[char] ?? texText(char, false);
  const sub = part(element, "sub");
  const sup = part(element, "sup");
  const hideSub = isOn(property(element, "naryPr", "subHide"));
  const hideSup = isOn(property(element, "naryPr", "supHide"));
  const lower = sub && !hideSub && children(sub).trim() ? `_${group(sub)}` : "";
  const upper = sup && !hideSup && children(sup).trim() ? `^${group(sup)}` : "";
  return `${operator}${lower}${upper}${group(part(element, "e"))}`;
}

function delimited(element: Element): string {
  const begin = property(element, "dPr", "begChr") ?? "(";
  const end = property(element, "dPr", "endChr") ?? ")";
  const separator = property(element, "dPr", "sepChr") ?? "|";
  const items = childElements(element, "e").map((e) => children(e).trim());
  const inner = items.join(separator === "|" && items.length > 1 ? " \\mid " : ` ${texText(separator, false)} `);
  return `${delimiter(begin, "\\left")} ${inner} ${delimiter(end, "\\right")}`;
}

function matrix(element: Element): string {
  const rows = childElements(element, "mr").map((row) => childElements(row, "e").map((e) => children(e).trim()).join(" & "));
  return `\\begin{matrix} ${rows.join(" \\\\ ")} \\end{matrix}`;
}

function fraction(element: Element): string {
  const numerator = group(part(element, "num"));
  const denominator = group(part(element, "den"));
  switch (property(element, "fPr", "type")) {
    case "lin":
    case "skw":
      return `${numerator}/${denominator}`;
    case "noBar":
      return `\\genfrac{}{}{0pt}{}${numerator}${denominator}`;
    default:
      return `\\frac${numerator}${denominator}`;
  }
}

function functionApply(element: Element): string {
  const nameElement = part(element, "fName");
  const name = nameElement ? textContent(nameElement).trim() : "";
  const applied = group(part(element, "e"));
  if (FUNCTIONS.has(name)) return `\\${name}${applied}`;
  // A name built of structures (lim under a limit) is written as converted.
  if (nameElement && !/^[A-Za-z]+$/.test(name)) return `${children(nameElement)}${applied}`;
  return `\\operatorname{${name}}${applied}`;
}

function limit(element: Element, below: boolean): string {
  const base = part(element, "e");
  const limitText = group(part(element, "lim"));
  const baseText = base ? children(base).trim() : "";
  if (/^\\(lim|max|min|sup|inf)\s*$/.test(baseText)) return `${baseText.trim()}${below ? "_" : "^"}${limitText}`;
  return `\\${below ? "underset" : "overset"}${limitText}{${baseText}}`;
}

function node(element: Element): string {
  switch (localName(element.name)) {
    case "r":
      return run(element);
    case "f":
      return fraction(element);
    case "sSub":
      return `${group(part(element, "e"))}_${group(part(element, "sub"))}`;
    case "sSup":
      return `${group(part(element, "e"))}^${group(part(element, "sup"))}`;
    case "sSubSup":
      return `${group(part(element, "e"))}_${group(part(element, "sub"))}^${group(part(element, "sup"))}`;
    case "sPre":
      return `{}_${group(part(element, "sub"))}^${group(part(element, "sup"))}${group(part(element, "e"))}`;
    case "rad": {
      const degree = part(element, "deg");
      const degreeText = degree && !isOn(property(element, "radPr", "degHide")) ? children(degree).trim() : "";
      return `\\sqrt${degreeText ? `[${degreeText}]` : ""}${group(part(element, "e"))}`;
    }
    case "nary":
      return nary(element);
    case "d":
      return delimited(element);
    case "m":
      return matrix(element);
    case "eqArr":
      return `\\begin{array}{l} ${childElements(element, "e").map((e) => children(e).trim()).join(" \\\\ ")} \\end{array}`;
    case "acc": {
      const char = property(element, "accPr", "chr") ?? "\u0302";
      return `${ACCENTS[char] ?? "\\hat"}${group(part(element, "e"))}`;
    }
    case "bar":
      return `${property(element, "barPr", "pos") === "top" ? "\\overline" : "\\underline"}${group(part(element, "e"))}`;
    case "groupChr": {
      const top = property(element, "groupChrPr", "pos") === "top";
      return `${top ? "\\overbrace" : "\\underbrace"}${group(part(element, "e"))}`;
    }
    case "borderBox":
      return `\\boxed${group(part(element, "e"))}`;
    case "func":
      return functionApply(element);
    case "limLow":
      return limit(element, true);
    case "limUpp":
      return limit(element, false);
    // Properties and control marks say how to draw, not what.
    case "rPr":
    case "ctrlPr":
    case "fPr":
    case "sSubPr":
    case "sSupPr":
    case "sSubSupPr":
    case "radPr":
    case "naryPr":
    case "dPr":
    case "mPr":
    case "accPr":
    case "barPr":
    case "funcPr":
    case "oMathParaPr":
    case "eqArrPr":
    case "limLowPr":
    case "limUppPr":
    case "groupChrPr":
    case "boxPr":
    case "borderBoxPr":
    case "pPr":
      return "";
    default:
      return children(element);
  }
}

/** The equation's text as written (its runs in order), for when no LaTeX can be made of it. */
export function linearMathText(element: Element): string {
  const parts: string[] = [];
  const visit = (parent: Element): void => {
    for (const child of parent.children) {
      if (!isElement(child)) continue;
      if (localName(child.name) === "t") parts.push(textContent(child));
      else visit(child);
    }
  };
  visit(element);
  return parts.join("").trim();
}

/** An m:oMath (or every m:oMath of an m:oMathPara, one per line) as LaTeX, spaces collapsed; "" when empty. */
export function ommlToLatex(element: Element): string {
  const equations = localName(element.name) === "oMathPara" ? childElements(element, "oMath") : [element];
  return equations
    .map((equation) => node(equation).replace(/\s+/g, " ").trim())
    .filter(Boolean)
    .join(" \\\\ ");
}
