import type { Element } from "domhandler";

/** Which HTML elements a reader never sees, and which are page furniture rather than content. */

/** Never rendered as text, or holding no visible prose. */
const NOT_RENDERED = new Set([
  "head", "title", "meta", "link", "base", "script", "style", "noscript", "template",
  "svg", "canvas", "iframe", "object", "embed", "video", "audio", "map", "source", "track",
]);

/** Form controls: their text is labels and option lists, not content. */
const FORM_CONTROLS = new Set(["input", "button", "select", "textarea", "option", "optgroup", "datalist"]);

const FURNITURE_ROLES = new Set(["navigation", "banner", "contentinfo", "complementary", "search", "menu", "menubar"]);

/** Words in class names and ids that clearly mark cookie banners, share bars, ads, comments, sidebars, breadcrumbs and menus. */
const FURNITURE_WORDS = new Set([
  "cookie", "cookies", "consent", "gdpr",
  "share", "sharing", "sharebar", "social",
  "ad", "ads", "advert", "adverts", "advertisement", "advertising", "adsbygoogle",
  "comment", "comments", "disqus",
  "sidebar", "breadcrumb", "breadcrumbs",
  "menu", "nav", "navbar", "navigation",
]);

/**
 * Tokens starting with these say nothing about what the element is: state classes (has-sidebar, no-ads)
 * and WordPress taxonomy classes (tag-social-media, category-ads) on articles.
 */
const IGNORED_FIRST_WORDS = new Set(["has", "with", "without", "no", "is", "show", "hide", "enable", "disable", "js", "tag", "category"]);

/** Content containers are never dropped for their class names. */
const CONTENT_CONTAINERS = new Set(["html", "body", "main", "article"]);

/** Hidden from everyone: not rendered, the hidden attribute, aria-hidden, or an inline display:none / visibility:hidden. */
export function isHidden(element: Element): boolean {
  const { attribs } = element;
  if (NOT_RENDERED.has(element.name)) return true;
  if (attribs.hidden !== undefined || attribs["aria-hidden"] === "true") return true;
  if (element.name === "dialog" && attribs.open === undefined) return true;
  const style = attribs.style;
  return style !== undefined && /display\s*:\s*none|visibility\s*:\s*hidden/i.test(style);
}

/**
 * Page furniture: form controls, nav, aside, search, furniture ARIA roles, page-level header/footer
 * (not inside a sectioning element) and, when classNames is set, class/id words like "cookie-banner".
 */
export function isFurniture(element: Element, inSection: boolean, classNames: boolean): boolean {
  const { name, attribs } = element;
  if (FORM_CONTROLS.has(name) || name === "nav" || name === "aside" || name === "search") return true;
  if ((name === "header" || name === "footer") && !inSection) return true;
  if (attribs.role !== undefined && FURNITURE_ROLES.has(attribs.role.trim().toLowerCase())) return true;
  if (!classNames || CONTENT_CONTAINERS.has(name) || attribs.role === "main") return false;
  return marksFurniture(attribs.class) || marksFurniture(attribs.id);
}

function marksFurniture(value: string | undefined): boolean {
  if (!value) return false;
  for (const token of value.split(/\s+/)) {
    // cookie-banner, share_bar, cookieBanner → cookie, banner / share, bar / cookie, banner
    const words = token.split(/[-_]+|(?<=[a-z])(?=[A-Z])/).map((word) => word.toLowerCase());
    if (words[0] !== undefined && IGNORED_FIRST_WORDS.has(words[0])) continue;
    if (words.some((word) => FURNITURE_WORDS.has(word))) return true;
  }
  return false;
}
