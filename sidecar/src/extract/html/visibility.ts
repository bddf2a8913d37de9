import type { Element } from "domhandler";
import { closestWithin, elementBeside, elementChildren, holdsWithin, isElement, isText, shortText } from "../dom.ts";
import { HEADING_LEVELS } from "./block-elements.ts";
import { classHint } from "./class-hints.ts";

/** Which HTML elements a reader never sees, and which are page furniture rather than content. */

/**
 * Never rendered as text, or holding no visible prose. A ruby annotation (<rt>, and <rp>'s parentheses for browsers
 * without ruby) is a reading set above its base text: written inline it splits the words (雪ゆきが降ふりました).
 */
const NOT_RENDERED = new Set([
  "head", "title", "meta", "link", "base", "script", "style", "noscript", "template",
  "svg", "canvas", "iframe", "object", "embed", "video", "audio", "map", "source", "track", "rt", "rp",
]);

/** Form controls: their text is labels and option lists, not content. */
const FORM_CONTROLS = new Set(["input", "button", "select", "textarea", "option", "optgroup", "datalist"]);

const FURNITURE_ROLES = new Set(["navigation", "banner", "contentinfo", "complementary", "search", "menu", "menubar"]);

/**
 * The class names CSS frameworks hide an element with (Bootstrap's hidden, hide and d-none, Bulma's is-hidden): a
 * second copy of the article kept for a paywall's teaser, a print-only header, closed captions, poll results.
 */
const HIDDEN_CLASS = /(?:^|\s)(?:hidden|hide|d-none|is-hidden)(?:\s|$)/i;
/** ...unless another class shows it again from a screen width on, or in print (d-none d-lg-block, hidden xl:flex, visible-md). */
const SHOWN_AT_BREAKPOINT = /(?:^|\s)(?:(?:d-(?:sm|md|lg|xl|xxl|print)-|(?:sm|md|lg|xl|2xl|print):)(?:block|flex|grid|inline|inline-block|inline-flex|table|contents)(?:\s|$)|visible-(?:xs|sm|md|lg|print))/i;

/** The class MediaWiki gives a formula's MathML, hidden beside the formula's picture (Wikipedia's formulas). */
const MEDIAWIKI_FORMULA = /(?:^|\s)mwe-math-mathml-a11y(?:\s|$)/;

/**
 * `hidden="until-found"`: collapsed, not hidden. A browser's find in page and links to a fragment open it (FAQ answers,
 * a mobile page's sections), so a reader reads it; any other value of the attribute hides the element.
 */
const UNTIL_FOUND = /^\s*until-found\s*$/i;

/**
 * Hidden from everyone: not rendered, the hidden attribute, aria-hidden, an inline display:none / visibility:hidden, or a
 * framework's hiding class name; but never a tab widget's panel, whatever hides it (the panels it does not show, npm's,
 * Yarn's and pnpm's install lines, are content a reader opens, as collapsed content is), nor the MathML MediaWiki hides
 * beside a picture of the formula it marks aria-hidden (the MathML is the formula's text).
 */
export function isHidden(element: Element): boolean {
  if (NOT_RENDERED.has(element.name)) return !(element.name === "noscript" && isOnlyPicture(element));
  if (!hiddenByMarkup(element)) return false;
  // The exceptions are read only for the few elements something hides: this runs for every element, several times.
  const { role, class: names } = element.attribs;
  return role !== "tabpanel" && !(names !== undefined && MEDIAWIKI_FORMULA.test(names));
}

/** A figure's parts: its picture, a stand-in or two, a caption. A box of more is no figure. */
const MAX_FIGURE_PARTS = 6;
/** How far down a figure's part holds a picture that stands in for the <noscript>'s (a link around an `<img>`). */
const STAND_IN_LEVELS = 2;

/**
 * A <noscript> of one picture and nothing else, in a box of a few parts none of which holds another picture (a lazy
 * loader's custom element beside it, Healthline's `<lazy-image>`): the only copy of the picture a reader without
 * script is given, as this one is. One beside a stand-in `<img>` is read through it (noscriptImage), or left out.
 */
function isOnlyPicture(noscript: Element): boolean {
  const [only] = elementChildren(noscript, 1) ?? [];
  if (only?.name !== "img" || !noscript.parent || !isElement(noscript.parent)) return false;
  const parts = elementChildren(noscript.parent, MAX_FIGURE_PARTS);
  return parts !== undefined && parts.every((part) => part === noscript || (part.name !== "img" && !holdsWithin(part, STAND_IN_LEVELS, (inner) => inner.name === "img")));
}

function hiddenByMarkup({ name, attribs }: Element): boolean {
  if ((attribs.hidden !== undefined && !UNTIL_FOUND.test(attribs.hidden)) || attribs["aria-hidden"] === "true") return true;
  if (name === "dialog" && attribs.open === undefined) return true;
  const names = attribs.class;
  // A disclosure's names say what it hides until opened (MyST-NB's `<details class="hide above-input">` around a code
  // cell's source), not that it is hidden: its summary shows.
  if (names !== undefined && name !== "details" && HIDDEN_CLASS.test(names) && !SHOWN_AT_BREAKPOINT.test(names)) return true;
  const style = attribs.style;
  return style !== undefined && /display\s*:\s*none|visibility\s*:\s*hidden/i.test(style);
}

/** A twin shown to sight is a unit, a rating's stars, an icon's name: a few words at most. */
const MAX_TWIN_CHARS = 40;

function shownOnlyToSight(element: Element | undefined): boolean {
  if (element === undefined || element.attribs["aria-hidden"] !== "true") return false;
  const shown = shortText(element, MAX_TWIN_CHARS);
  return shown !== undefined && shown !== "";
}

/**
 * Whether screen-reader-only text is the spoken twin of text marked aria-hidden beside it: the same thing written twice,
 * once for each kind of reader (WP Recipe Maker's `15<span class="sr-only"> minutes</span> <span aria-hidden="true">mins</span>`,
 * a rating's stars beside "4 out of 5", an icon font's ligature beside its name). Leaving out both loses it; the
 * spoken one is kept, being written as words where the shown one may be glyphs. The twin is beside it, or beside its
 * parent when it ends its parent.
 */
export function speaksForTwin(element: Element): boolean {
  if (shownOnlyToSight(elementBeside(element, "prev"))) return true;
  const next = elementBeside(element);
  if (next) return shownOnlyToSight(next);
  const { parent } = element;
  return parent !== null && isElement(parent) && shownOnlyToSight(elementBeside(parent));
}

/** An accordion's button sits in its heading, or one level further in. */
const BUTTON_HEADING_LEVELS = 2;

/**
 * Whether a button names the section it opens: an accordion's header, which ARIA's pattern writes as a disclosure button
 * (aria-expanded) in a heading (an FAQ's questions). Its text is the section's title, not a control's label; other
 * buttons in headings (a recipe's "1x 2x 3x") are controls.
 */
function opensSection(button: Element): boolean {
  if (button.attribs["aria-expanded"] === undefined) return false;
  return closestWithin(button, BUTTON_HEADING_LEVELS, (at) => HEADING_LEVELS[at.name] !== undefined || at.attribs.role === "heading") !== undefined;
}

/** A class naming code: `code`, `example-code` (not `exampleCode`'s camel case, which names no word apart). */
const CODE_NAME = /(?:^|[\s_-])code(?:$|[\s_-])/i;

/**
 * Whether a textarea is a code editor's box holding code to read and run (pkg.go.dev's examples, a playground's source):
 * named as code or with spell-checking off. A box to write in (a comment form's) is a control. An empty editor writes
 * nothing (code-block.ts editorCodeBlock).
 */
function isCodeEditor(textarea: Element): boolean {
  const { spellcheck, class: className } = textarea.attribs;
  return spellcheck?.trim().toLowerCase() === "false" || CODE_NAME.test(className ?? "");
}

/** A table cell's content is its only child element, with no more than blank text beside it. */
const onlyElementIn = (parent: Element, child: Element): boolean =>
  parent.children.length <= 3 && parent.children.every((node) => node === child || (isText(node) && node.data.trim() === ""));

/**
 * Whether a button is all a table cell holds, or all of the one element the cell holds: a sortable column's header
 * (`<th><button>Length</button></th>`), a cell that opens its details. Its text is the cell's.
 */
function isCellContent(button: Element): boolean {
  const { parent } = button;
  if (!parent || !isElement(parent) || !onlyElementIn(parent, button)) return false;
  if (parent.name === "td" || parent.name === "th") return true;
  const cell = parent.parent;
  return cell !== null && isElement(cell) && (cell.name === "td" || cell.name === "th") && onlyElementIn(cell, parent);
}

/**
 * Page furniture by tag and ARIA role: form controls, nav, aside, search, and page-level header/footer. A header
 * inside <main> or a sectioning element is its own (an article's header holds the headline). A footer is the
 * page's unless it is inside sectioning content (article, section, aside, nav), as HTML defines it: one inside
 * <main> but no section is the site's footer placed there.
 */
/** Whom a quotation is from is a name or a few words before a colon ("mkowalski:", "Ann Lee wrote:"). */
const MAX_ATTRIBUTION_CHARS = 60;

/**
 * An aside of a quotation under a line saying whom it is from (Discourse's `<aside class="quote">`: a reply quoting a
 * post above it) is the post's text, not a box beside it.
 */
function isAttributedQuotation(aside: Element): boolean {
  const [title, quotation, ...rest] = elementChildren(aside, 2) ?? [];
  // A heading over the quotation titles a box of its own (a sidebar's "What readers say:" over a testimonial).
  if (!title || HEADING_LEVELS[title.name] !== undefined || quotation?.name !== "blockquote" || rest.length > 0) return false;
  return shortText(title, MAX_ATTRIBUTION_CHARS)?.endsWith(":") === true;
}

export function isFurniture(element: Element, inSection: boolean, inSectioningContent: boolean): boolean {
  const { name, attribs } = element;
  if (name === "button") return !opensSection(element) && !isCellContent(element);
  if (name === "textarea") return !isCodeEditor(element);
  if (FORM_CONTROLS.has(name) || name === "nav" || name === "search") return true;
  if (name === "aside") {
    // A note set apart in the text, or the article's box of facts (Fandom's infobox), as Wikipedia's table is.
    const { callout, factBox } = classHint(element);
    return !callout && !factBox && !isAttributedQuotation(element);
  }
  if (name === "header" && !inSection) return true;
  if (name === "footer" && !inSectioningContent) return true;
  return attribs.role !== undefined && FURNITURE_ROLES.has(attribs.role.trim().toLowerCase());
}
