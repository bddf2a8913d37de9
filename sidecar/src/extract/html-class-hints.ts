import type { Element } from "domhandler";

/**
 * What an element's class and id words say about it. Authors name their containers for what they hold
 * (article-body, comment-list, share-bar), which is the strongest hint a page gives besides its text.
 */

export interface ClassHint {
  /** Page furniture by name: cookie banners, share bars, ads, comments, sidebars, menus, related links. */
  furniture: boolean;
  /** For content scoring: positive for article-like names, negative for boilerplate-like ones. */
  weight: number;
  /** Bylines, datelines and author boxes: the article's metadata rather than its text. */
  byline: boolean;
}

/** Words that clearly name furniture; an element so named is dropped whatever its size. */
const FURNITURE_WORDS = new Set([
  "cookie", "cookies", "consent", "gdpr",
  "share", "shares", "sharing", "sharebar", "sharetools", "social", "socials", "sociallinks",
  "ad", "ads", "advert", "adverts", "advertisement", "advertising", "adsbygoogle", "adslot", "adunit", "dfp", "sponsored",
  "outbrain", "taboola", "zergnet",
  "comment", "comments", "disqus", "respond",
  "sidebar", "breadcrumb", "breadcrumbs",
  "menu", "nav", "navbar", "navigation", "topnav",
  "related", "recommended", "recommendations", "newsletter", "newsletters", "signup", "subscribe", "subscription",
  "popup", "modal", "overlay", "paywall", "credit", "credits", "copyright",
]);

/** Class names that hide text from sighted readers (screen-reader-only helpers). */
const VISUALLY_HIDDEN = new Set(["sr-only", "screen-reader-text", "visually-hidden", "visuallyhidden", "element-invisible", "screenreader"]);

/** Words that make an element less likely to be the article, without ruling it out. */
const NEGATIVE_WORDS = new Set([
  "footer", "header", "masthead", "banner", "meta", "metadata", "tags", "tag", "widget", "widgets", "promo", "promos",
  "teaser", "teasers", "card", "cards", "rail", "extra", "supplemental", "aside", "contact", "shopping", "pagination",
  "pager", "more", "trending", "popular", "most", "caption", "credit", "credits", "byline", "author", "hidden", "print",
  "tools", "toolbar", "utility", "skip", "jump", "subnav", "links", "list", "feed", "latest", "sponsor", "partner",
]);

/** Words that name the article or its text. */
const POSITIVE_WORDS = new Set([
  "article", "articles", "body", "content", "entry", "hentry", "main", "post", "text", "story", "blog", "prose",
  "articlebody", "storybody", "postbody", "entrycontent", "maincontent",
]);

const BYLINE_WORDS = new Set(["byline", "author", "authors", "dateline", "writtenby", "contributor", "contributors"]);

/**
 * Tokens starting with these say nothing about what the element is: state classes (has-sidebar, no-ads)
 * and WordPress taxonomy classes (tag-social-media, category-ads) on articles.
 */
const IGNORED_FIRST_WORDS = new Set(["has", "with", "without", "no", "is", "show", "hide", "enable", "disable", "js", "tag", "category"]);

/** Elements whose class names are not judged: the page's own containers, and table parts (a guess on a cell would shift columns). */
const NOT_JUDGED = new Set(["html", "body", "main", "article", "tr", "td", "th", "thead", "tbody", "tfoot", "caption", "li", "dt", "dd"]);

const NONE: ClassHint = { furniture: false, weight: 0, byline: false };

function words(token: string): string[] {
  // cookie-banner, share_bar, cookieBanner → cookie, banner / share, bar / cookie, banner
  return token.split(/[-_:.]+|(?<=[a-z])(?=[A-Z])/).map((word) => word.toLowerCase());
}

function judge(value: string | undefined, hint: ClassHint): void {
  if (!value) return;
  let positive = false;
  let negative = false;
  let embed = false;
  for (const token of value.split(/\s+/)) {
    if (!token) continue;
    if (VISUALLY_HIDDEN.has(token.toLowerCase())) hint.furniture = true;
    const parts = words(token);
    if (parts[0] !== undefined && IGNORED_FIRST_WORDS.has(parts[0])) continue;
    for (const word of parts) {
      if (FURNITURE_WORDS.has(word)) hint.furniture = true;
      if (word === "embed" || word === "embedded") embed = true;
      if (NEGATIVE_WORDS.has(word)) negative = true;
      if (POSITIVE_WORDS.has(word)) positive = true;
      if (BYLINE_WORDS.has(word)) hint.byline = true;
    }
  }
  // A post embedded in the article (social-media-embed) is quoted content, not a share bar.
  if (embed) hint.furniture = false;
  // As Readability weighs class and id: each counts once, and a name with both kinds of word is neutral.
  if (positive && !negative) hint.weight += 25;
  if (negative && !positive) hint.weight -= 25;
}

export function classHint(element: Element): ClassHint {
  const { class: className, id, rel, itemprop } = element.attribs;
  if (!className && !id && !rel && !itemprop) return NONE;
  const hint = { furniture: false, weight: 0, byline: false };
  if (!NOT_JUDGED.has(element.name) && element.attribs.role !== "main") {
    judge(className, hint);
    judge(id, hint);
  }
  if (/\bauthor\b/i.test(rel ?? "") || /\bauthor\b/i.test(itemprop ?? "")) hint.byline = true;
  if (/\barticleBody\b/.test(itemprop ?? "")) hint.weight += 25;
  return hint;
}
