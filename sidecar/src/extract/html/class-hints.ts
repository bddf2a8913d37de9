import type { Element } from "domhandler";
import { closestWithin, elementFrom, findElement, firstShown, isElement, shortText, textContent } from "../dom.ts";
import { BLOCK_ELEMENTS, BOLD_ELEMENTS, HEADING_LEVELS } from "./block-elements.ts";

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
  /** Named for reader comments: furniture even when it holds most of the page's text. */
  discussion: boolean;
  /** Named as a picture's caption. */
  caption: boolean;
  /** Named as a button (a link styled as one: "Subscribe now", "Become a member"). */
  button: boolean;
  /** Named as a post's or article's own body (hAtom's hentry and entry-content, post-body, schema.org articleBody). */
  postBody: boolean;
  /** Named as a callout in the text: a note, tip or warning set apart (admonition, callout, alert). */
  callout: boolean;
  /** Named as text for screen readers only (sr-only, visually-hidden): furniture unless it is the words of a twin shown to sight. */
  spoken: boolean;
  /** An aside named as an infobox (Fandom's portable-infobox): the article's box of facts, not a box beside it. */
  factBox: boolean;
  /** Named as a poster's user name (vBulletin's, phpBB's and XenForo's username, Hacker News' hnuser). */
  userName: boolean;
  /** Named by a kind of note (note, tip, warning): a callout when it is an aside or titled by that kind. */
  noteKind: boolean;
  /**
   * Named `signature`, whole: on a block, a forum poster's signature under each post (phpBB's, SMF's, MyBB's,
   * vBulletin's); on an inline element, a function's (JSDoc's `<span class="signature">(a, b)</span>`). Other names
   * with the word are an API's (Javadoc's `member-signature`).
   */
  signature: boolean;
}

/** Words that clearly name furniture; an element so named is dropped whatever its size. */
const FURNITURE_WORDS = new Set([
  "cookie", "cookies", "consent", "gdpr",
  "share", "shares", "sharing", "sharebar", "sharetools", "social", "socials", "sociallinks",
  "ad", "ads", "advert", "adverts", "advertisement", "advertising", "adsbygoogle", "adslot", "adunit", "dfp", "sponsored",
  "outbrain", "taboola", "zergnet", "sharedaddy", "sharethis", "addthis", "addtoany", "shariff", "shareaholic",
  "sidebar", "breadcrumb", "breadcrumbs", "widget", "widgets",
  "menu", "nav", "navbar", "navigation", "topnav",
  "related", "recommended", "recommendations", "newsletter", "newsletters", "signup", "subscribe", "subscription",
  "popup", "modal", "overlay", "credit", "credits", "copyright", "rating", "ratings",
  "cta", "paywall", "donate", "donation", "slideshow", "slideshows", "carousel", "slider", "editsection", "feedback", "affiliate", "disclosure", "promoted",
]);

/** Words that name reader comments, in English (most class names are) and the other languages pages here are written in. */
const DISCUSSION_WORDS = new Set(["comment", "comments", "commentlist", "disqus", "respond", "kommentar", "kommentare", "commentaire", "commentaires", "comentario", "comentarios", "commento", "commenti"]);

/**
 * Jupyter's cell prompts ("In [1]:", "Out[2]:"), as JupyterLab and nbconvert name them: the notebook's chrome beside each
 * cell. Whole names only: "prompt" alone names a prompt shown as content on many pages now.
 */
const NOTEBOOK_PROMPTS = new Set(["jp-inputprompt", "jp-outputprompt", "input_prompt", "output_prompt"]);

/**
 * rustdoc's chrome around an item's documentation (docs.rs): each method's version and source link set to the right
 * (rightside), a code example's "Run" link to the playground (test-arrow), and the "Expand description" summary of a
 * description shown open (hideme, which rustdoc hides once it is open).
 */
const RUSTDOC_CHROME = new Set(["rightside", "test-arrow", "hideme"]);

/**
 * CSS frameworks' fixed-position utilities (Tailwind's fixed, Bootstrap's fixed-top and fixed-bottom): an element pinned to
 * the window (an announcement bar, a cookie notice, a toolbar) stands over the page, not in its text.
 */
const PINNED_NAMES = new Set(["fixed", "fixed-top", "fixed-bottom"]);

/** Class names that hide text from sighted readers (screen-reader-only helpers). */
const VISUALLY_HIDDEN = new Set(["sr-only", "screen-reader-text", "visually-hidden", "visuallyhidden", "element-invisible", "screenreader"]);
/** The same helpers under a design system's prefix (the NHS's nhsuk-u-visually-hidden, GOV.UK's govuk-visually-hidden). */
const PREFIXED_VISUALLY_HIDDEN = /[-_](?:sr-only|screen-reader-text|visually-hidden|visuallyhidden)$/;

/**
 * Class names that leave an element out of the printed page (noprint, hide-for-print, d-print-none,
 * print:hidden): the author's own word that it is the screen's chrome, not the text.
 */
const NOT_PRINTED = /^(?:(?:no|not|non|hide|hidden|dont|do-not)[-_]?(?:for[-_]|on[-_]|in[-_])?print(?:ing|able)?|(?:d-)?print[-_:]?(?:hidden|hide|none|no))$/i;

/** Words that make an element less likely to be the article, without ruling it out. */
const NEGATIVE_WORDS = new Set([
  "footer", "header", "masthead", "banner", "meta", "metadata", "tags", "tag", "promo", "promos",
  "teaser", "teasers", "card", "cards", "rail", "extra", "supplemental", "aside", "contact", "shopping", "pagination",
  "pager", "more", "trending", "popular", "most", "caption", "credit", "credits", "byline", "author", "hidden", "print",
  "tools", "toolbar", "utility", "skip", "jump", "subnav", "links", "list", "feed", "latest", "sponsor", "partner",
]);

/** Words that name the article or its text. */
const POSITIVE_WORDS = new Set([
  "article", "articles", "body", "content", "entry", "hentry", "main", "post", "text", "story", "blog", "prose",
  "articlebody", "storybody", "postbody", "entrycontent", "maincontent", "ingredient", "ingredients",
]);

const CAPTION_WORDS = new Set(["caption", "captions", "figcaption"]);

/**
 * Whole class names that blog engines and CMSs give a post's own body: Blogger's and WordPress themes' post-body and
 * post-content, article-body, story-body; and any name with hAtom's entry words (hentry, entry-content, entry-single).
 */
const POST_BODY_NAMES = new Set([
  "post-body", "post-content", "postbody", "postcontent", "entrycontent", "article-body", "article-content", "articlebody", "story-body", "storybody",
]);
const POST_WORDS = new Set(["entry", "hentry"]);

/**
 * Whole class names editors give the lists of a text, by what they are: WordPress (6.3 on) names every list in a post
 * wp-block-list, Notion's export bulleted-list and numbered-list (its published pages notion-bulleted_list-block and
 * notion-numbered_list-block, an item each), others bullet-list. With "list" in them they read as negatively named boxes
 * of short lines, and were left out.
 */
const POST_BLOCK_NAMES = new Set(["wp-block-list", "bulleted-list", "numbered-list", "bullet-list", "notion-bulleted_list-block", "notion-numbered_list-block"]);

/**
 * CSS frameworks' caption-side utilities (Bootstrap 5's and Tailwind's caption-top, caption-bottom) say where a table's
 * caption goes, not that the element is one: Quarto and Bootstrap pages name their data tables so.
 */
const PLACEMENT_NAMES = new Set(["caption-top", "caption-bottom"]);

/** Words that name a callout: documentation generators' admonitions (MkDocs, Sphinx, Docusaurus, Asciidoctor), GitHub's alerts. */
const CALLOUT_WORDS = new Set(["admonition", "admonitions", "admonitionblock", "callout", "callouts", "alert"]);
/**
 * What Elementor names every block of a page it builds, a widget of its kind (`elementor-widget
 * elementor-widget-heading`): the content's headings and paragraphs, not a sidebar's widgets.
 */
const BUILDER_BLOCK = "elementor-widget";

/** ...and the caption of its picture block, a caption and not a widget (`widget-image-caption`). */
const BUILDER_CAPTIONS = ["widget-image-caption"];

/** Whole class names of callouts whose words name nothing of the kind: VitePress' (`<div class="tip custom-block">`). */
const CALLOUT_NAMES = new Set(["custom-block"]);

/**
 * Words that name a kind of note: reStructuredText's admonitions, which documentation generators share (Starlight's
 * starlight-aside--note). They make a callout only of an aside: on other elements "note" and "tip" name whole
 * articles, references and tooltips.
 */
const NOTE_KIND_WORDS = new Set(["attention", "caution", "danger", "hint", "important", "note", "tip", "warning"]);

const BYLINE_WORDS = new Set(["byline", "author", "authors", "dateline", "writtenby", "contributor", "contributors", "bio"]);

/**
 * Words that name a poster's name in a forum or a comment: what is a name's link in a thread. Not a byline word: on a
 * page whose thread is not its text, the names are left out with it.
 */
const USER_NAME_WORDS = new Set(["username", "hnuser", "nickname"]);

/**
 * The rest of a token after one of these says nothing about what the element is: state classes (has-sidebar,
 * no-ads, o-section--has-ads) and WordPress taxonomy classes (tag-social-media, category-ads) on articles.
 */
const STATE_WORDS = new Set(["has", "with", "without", "no", "is", "show", "hide", "enable", "disable", "js", "tag", "category"]);

/**
 * Elements whose class names are not judged: the page's own containers, table parts (a guess on a cell would shift
 * columns), and formulas (MathJax names each one for its context menu, CtxtMenu_Attached_0).
 */
const NOT_JUDGED = new Set(["html", "body", "main", "article", "tr", "td", "th", "thead", "tbody", "tfoot", "caption", "li", "dt", "dd", "math", "mjx-container"]);

/** What an element without names (or with names that say nothing) is: the one literal of every field. */
export const NO_HINT: Readonly<ClassHint> = {
  furniture: false, weight: 0, byline: false, discussion: false, caption: false, button: false, postBody: false, callout: false, spoken: false, factBox: false, userName: false, noteKind: false, signature: false,
};

const isSeparator = (code: number): boolean => code === 0x2d || code === 0x5f || code === 0x3a || code === 0x2e; // - _ : .
const isSmall = (code: number): boolean => code >= 0x61 && code <= 0x7a;
const isCapital = (code: number): boolean => code >= 0x41 && code <= 0x5a;

/** What one class token says, as bits: the same tokens recur across values (post, post-123, type-post). */
const FURNITURE = 1;
const DISCUSSION = 2;
const EMBED = 4;
const NEGATIVE = 8;
const POSITIVE = 16;
const BYLINE = 32;
const CAPTION = 64;
const BUTTON = 128;
const POST_BODY = 256;
/** A word's own meanings: a furniture word counts only before a BEM modifier, a state word ends the token's reading. */
const FURNITURE_WORD = 512;
const STATE_WORD = 1024;
const CALLOUT = 2048;
const NOTE_KIND = 4096;
/** A whole name's meaning is all it says: its words are not read (wp-block-list says nothing of "list"). */
const WHOLE = 8192;
const SPOKEN = 16384;
const FACT_BOX = 32768;
const USER_NAME = 65536;
const SIGNATURE = 131072;
/** A paper's summary of itself: its text, whoever's it is named as (ScienceDirect's `abstract author`). */
const ABSTRACT = 262144;

/** Each word or name with all it means: the bits of every group it is in. */
function meaningsOf(groups: ReadonlyArray<readonly [Iterable<string>, number]>): ReadonlyMap<string, number> {
  const meanings = new Map<string, number>();
  for (const [words, bits] of groups) for (const word of words) meanings.set(word, (meanings.get(word) ?? 0) | bits);
  return meanings;
}

/** Every word that means something, with all it means: one lookup a word, where most words mean nothing. */
const WORD_MEANINGS = meaningsOf([
  [STATE_WORDS, STATE_WORD],
  [FURNITURE_WORDS, FURNITURE_WORD],
  [DISCUSSION_WORDS, FURNITURE | DISCUSSION],
  [["embed", "embedded"], EMBED],
  [NEGATIVE_WORDS, NEGATIVE],
  [POSITIVE_WORDS, POSITIVE],
  [BYLINE_WORDS, BYLINE],
  [CAPTION_WORDS, CAPTION],
  [["button", "btn"], BUTTON],
  [POST_WORDS, POST_BODY],
  [CALLOUT_WORDS, CALLOUT],
  [NOTE_KIND_WORDS, NOTE_KIND],
  [["infobox"], FACT_BOX],
  [USER_NAME_WORDS, USER_NAME],
  [["abstract", "abstracts"], ABSTRACT | POSITIVE],
]);

/** Whole class names with what each says, looked up once before a name's words are read. */
const NAME_MEANINGS = meaningsOf([
  [POST_BLOCK_NAMES, WHOLE],
  [PLACEMENT_NAMES, WHOLE],
  [BUILDER_CAPTIONS, WHOLE | CAPTION],
  [CALLOUT_NAMES, WHOLE | CALLOUT],
  [VISUALLY_HIDDEN, FURNITURE | SPOKEN],
  [NOTEBOOK_PROMPTS, FURNITURE],
  [PINNED_NAMES, FURNITURE],
  [["signature"], SIGNATURE],
  [RUSTDOC_CHROME, FURNITURE],
  [POST_BODY_NAMES, POST_BODY],
]);

/** Judgements are kept, per token and per whole value; beyond this many the cache starts over. */
const MAX_JUDGED = 20_000;
const judgedTokens = new Map<string, number>();
const judged = new Map<string, Readonly<ClassHint>>();

/**
 * What a token's words say. cookie-banner, share_bar, cookieBanner → cookie, banner / share, bar / cookie, banner:
 * words split at -, _, :, . and where a small letter meets a capital, lower-cased, empty words left out. Read in one
 * loop that looks each word up as it ends: unseen class names are read one by one on every page (a site's utility
 * classes run to tens of thousands), and a pattern split, then an array of words, took most of that time.
 */
function judgeToken(token: string): number {
  const known = judgedTokens.get(token);
  if (known !== undefined) return known;
  const lower = token.toLowerCase();
  // A page builder's block: its kind is what the name says (elementor-widget-heading is a heading, -share-buttons a share
  // bar), the word for the block says nothing.
  if (lower.startsWith(BUILDER_BLOCK) && (lower.length === BUILDER_BLOCK.length || lower.charAt(BUILDER_BLOCK.length) === "-")) {
    return remember(token, lower.length === BUILDER_BLOCK.length ? 0 : judgeToken(token.slice(BUILDER_BLOCK.length + 1)));
  }
  // A post's own block, named by the editor that wrote it, says nothing against it; nor does a placement utility.
  const named = NAME_MEANINGS.get(lower) ?? (PREFIXED_VISUALLY_HIDDEN.test(lower) ? FURNITURE | SPOKEN : 0);
  if (named & WHOLE) return named & ~WHOLE;
  let bits = named | (NOT_PRINTED.test(token) ? FURNITURE : 0);
  // A BEM modifier (after "--") flags a variant of what the name before it is: a furniture word there says what the
  // element carries, not what it is (TestReport__Section--Ads, a section of the report with an ad slot in it).
  const modifier = token.indexOf("--");
  const namedEnd = modifier > 0 ? modifier : token.length;
  // Lower-casing keeps offsets unless a letter grows (İ): then each word is lower-cased by itself.
  const aligned = lower.length === token.length;
  let start = 0;
  for (let i = 0; i <= token.length; i++) {
    const code = i < token.length ? token.charCodeAt(i) : -1;
    const separator = isSeparator(code);
    if (code !== -1 && !separator && !(isCapital(code) && i > 0 && isSmall(token.charCodeAt(i - 1)))) continue;
    if (i > start) {
      const meaning = WORD_MEANINGS.get(aligned ? lower.slice(start, i) : token.slice(start, i).toLowerCase());
      if (meaning !== undefined) {
        // What follows a state word describes the element's state, not the element (o-section--has-ads).
        if (meaning & STATE_WORD) break;
        if (meaning & FURNITURE_WORD && start < namedEnd) bits |= FURNITURE;
        bits |= meaning & ~FURNITURE_WORD;
      }
    }
    start = separator ? i + 1 : i;
  }
  // A comment's entry (comment-entry) is not the post's.
  if (bits & DISCUSSION) bits &= ~POST_BODY;
  return remember(token, bits);
}

/** Keeps a token's judgement, starting over past MAX_JUDGED. */
function remember(token: string, bits: number): number {
  if (judgedTokens.size >= MAX_JUDGED) judgedTokens.clear();
  judgedTokens.set(token, bits);
  return bits;
}

/** What one class or id value says. */
function judge(value: string): Readonly<ClassHint> {
  const known = judged.get(value);
  if (known) return known;
  let bits = 0;
  for (const token of value.split(/\s+/)) if (token) bits |= judgeToken(token);
  // A post embedded in the article (social-media-embed) is quoted content, not a share bar.
  const embed = (bits & EMBED) !== 0;
  const positive = (bits & POSITIVE) !== 0;
  const negative = (bits & NEGATIVE) !== 0;
  // Fields in NO_HINT's order: the hints read everywhere then share one shape.
  const hint: ClassHint = {
    furniture: !embed && (bits & FURNITURE) !== 0,
    // As Readability weighs class and id: each counts once, and a name with both kinds of word is neutral. A callout's
    // body (admonition-content) is a box in the text, not the text.
    weight: positive === negative || (bits & CALLOUT) !== 0 ? 0 : positive ? 25 : -25,
    byline: (bits & BYLINE) !== 0 && (bits & ABSTRACT) === 0,
    discussion: !embed && (bits & DISCUSSION) !== 0,
    caption: (bits & CAPTION) !== 0,
    button: (bits & BUTTON) !== 0,
    // entry-meta, entry-footer: the post's chrome, not its body.
    postBody: (bits & POST_BODY) !== 0 && !negative,
    callout: (bits & CALLOUT) !== 0,
    spoken: (bits & SPOKEN) !== 0,
    factBox: false,
    userName: (bits & USER_NAME) !== 0,
    noteKind: (bits & NOTE_KIND) !== 0,
    signature: (bits & SIGNATURE) !== 0,
  };
  if (judged.size >= MAX_JUDGED) judged.clear();
  judged.set(value, hint);
  return hint;
}

/**
 * An id of at least this many words that spells out the element's heading is a slug of it (documentation generators
 * and Markdown renderers give every section one: "sharing-with-a-single-developer"); a shorter one may be a box's
 * name that its heading repeats (`<div id="comments"><h2>Comments</h2>`).
 */
const MIN_SLUG_WORDS = 4;
const NOT_SLUG_CHARACTERS = /[^\p{L}\p{N}]+/gu;

const slug = (text: string): string => text.toLowerCase().replace(NOT_SLUG_CHARACTERS, "-").replace(/^-+|-+$/g, "");

/** Whether id is the slug of the element's heading: itself when it is one, else the first heading inside it. */
function isHeadingSlug(element: Element, id: string): boolean {
  const words = slug(id);
  if (words.split("-").length < MIN_SLUG_WORDS) return false;
  const heading = HEADING_LEVELS[element.name] !== undefined ? element : findElement(element, (inner) => HEADING_LEVELS[inner.name] !== undefined);
  return heading !== undefined && slug(textContent(heading)) === words;
}

/** schema.org's markup for reader comments: an item typed Comment or UserComments, or a property comment(s). */
const SCHEMA_COMMENT_TYPE = /schema\.org\/(?:Comment|UserComments)\b/;
const SCHEMA_COMMENT_PROPERTY = /(?:^|\s)comments?(?:\s|$)/;
const SCHEMA_COUNTER_TYPE = /schema\.org\/InteractionCounter\b/;

/** A callout's title is a word or two. */
const MAX_NOTE_TITLE_CHARS = 20;

/** Whether an element's text names a kind of note ("Note", "WARNING", "Tip:"). */
function namesNoteKind(element: Element): boolean {
  const title = shortText(element, MAX_NOTE_TITLE_CHARS);
  return title !== undefined && NOTE_KIND_WORDS.has(title.replace(/:$/, "").toLowerCase());
}

/** Whether a class value is two names of kinds of note, a note and its kind (Hexo NexT's `<div class="note warning">`). */
function namesNoteKindTwice(value: string): boolean {
  let kinds = 0;
  for (const token of value.split(/\s+/)) if (NOTE_KIND_WORDS.has(token.toLowerCase()) && ++kinds === 2) return true;
  return false;
}

/**
 * Whether an element's first child is a title that names a kind of note, or a paragraph opening with that kind in bold
 * (MDN's `<div class="notecard note"><p><strong>Note:</strong> …`).
 */
function titledAsNote(element: Element): boolean {
  const first = elementFrom(element.children[0]);
  if (!first) return false;
  if (namesNoteKind(first)) return true;
  // In bold: how a note's kind opens its first paragraph ("<p><strong>Note:</strong> …").
  const opening = firstShown(first);
  return opening !== undefined && isElement(opening) && BOLD_ELEMENTS.has(opening.name) && namesNoteKind(opening);
}

/** The kinds of panel Atlassian's editor writes in `data-panel-type` (Confluence's and Jira's info, note, warning boxes). */
const PANEL_KINDS = new Set(["info", "note", "tip", "warning", "error", "success"]);

/** Whether a class value has a word that names an infobox. */
const namesFactBox = (value: string): boolean => value.split(/\s+/).some((token) => token !== "" && (judgeToken(token) & FACT_BOX) !== 0);

/** A forum's topic as schema.org types it: its comments are the thread's replies. */
const SCHEMA_FORUM_POSTING = /schema\.org\/DiscussionForumPosting\b/;
/** A reply sits in its topic's item this many levels up at most (nested replies, each a Comment in the one above). */
const MAX_ITEM_LEVELS = 16;

/**
 * Whether an element is inside a forum topic's item (Discourse's and forum plugins' microdata): a comment there is a
 * reply in the thread the page is for, not a reader's comment beside an article.
 */
export const inForumPosting = (element: Element): boolean =>
  closestWithin(element, MAX_ITEM_LEVELS, ({ attribs: { itemtype, itemscope } }) => itemtype !== undefined && itemscope !== undefined && SCHEMA_FORUM_POSTING.test(itemtype)) !== undefined;

export function classHint(element: Element): ClassHint {
  const { class: className, rel, itemprop, itemtype } = element.attribs;
  // Where class names are hashed (CSS modules, styled-components), a component's test id or name is the one that says
  // what it is (BBC's data-component="byline-block", the Guardian's data-gu-name="dateline", the South China Morning
  // Post's data-qa="AuthorBio-Container"): read as an id is.
  const { attribs } = element;
  const id = attribs.id ?? attribs["data-testid"] ?? attribs["data-qa"] ?? attribs["data-component"] ?? attribs["data-gu-name"];
  if (!className && !id && !rel && !itemprop && !itemtype) return NO_HINT;
  const byClass = className ? judge(className) : NO_HINT;
  // An aside named as a note, tip or warning is a callout in the text (Starlight's), not a box beside it, and so is any
  // element so named whose title is that kind (DocFX's and Microsoft Learn's `<div class="NOTE"><p>Note</p>`); an aside
  // named as an infobox is the article's box of facts (Fandom's). Elsewhere these words name other things: whole
  // articles, tooltips, a news site's box of links and dates beside a story. A disclosure so named is a note that opens
  // (MkDocs' collapsible `<details class="note">`, titled by its summary). Two such names are a note and its kind.
  if (byClass.noteKind && (element.name === "aside" || element.name === "details" || titledAsNote(element) || namesNoteKindTwice(className ?? ""))) {
    return { ...NO_HINT, callout: true };
  }
  if (PANEL_KINDS.has(element.attribs["data-panel-type"] ?? "")) return { ...NO_HINT, callout: true };
  if (element.name === "aside" && className !== undefined && namesFactBox(className)) return { ...NO_HINT, factBox: true };
  if (byClass.signature && BLOCK_ELEMENTS.has(element.name)) return { ...byClass, furniture: true };
  let byId = id ? judge(id) : NO_HINT;
  // An id that spells out the section's own heading is an anchor for it, not a name for what the element is.
  if (id && (byId.furniture || byId.discussion) && isHeadingSlug(element, id)) byId = NO_HINT;
  // What names a post's body is read on every element: <article class="post hentry"> is one.
  const judged = !NOT_JUDGED.has(element.name) && element.attribs.role !== "main";
  // Most named elements are named by their class or their id alone: that name's judgement is theirs, as it is kept.
  const alone = byId === NO_HINT ? byClass : byClass === NO_HINT ? byId : undefined;
  if (alone && judged && !rel && !itemprop && !itemtype && element.name !== "img") return alone;
  const hint = { ...NO_HINT, postBody: byClass.postBody || byId.postBody };
  if (judged) {
    for (const said of [byClass, byId]) {
      hint.furniture ||= said.furniture;
      hint.weight += said.weight;
      hint.byline ||= said.byline;
      hint.discussion ||= said.discussion;
      hint.caption ||= said.caption;
      hint.button ||= said.button;
      hint.callout ||= said.callout;
      hint.spoken ||= said.spoken;
      hint.userName ||= said.userName;
    }
  }
  if ((itemtype !== undefined && SCHEMA_COMMENT_TYPE.test(itemtype)) || (itemprop !== undefined && SCHEMA_COMMENT_PROPERTY.test(itemprop))) {
    hint.furniture = hint.discussion = true;
  }
  // A count of likes, shares or views as schema.org types it is the page's chrome ("3 Likes" under a forum post).
  if (itemtype !== undefined && SCHEMA_COUNTER_TYPE.test(itemtype)) hint.furniture = true;
  // A picture's own names say how it is shown (td-modal-image: opens in a lightbox), not that it is furniture;
  // furniture pictures sit in furniture containers.
  if (element.name === "img") hint.furniture = hint.discussion = false;
  if (/\bauthor\b/i.test(rel ?? "") || /\bauthor\b/i.test(itemprop ?? "")) hint.byline = true;
  if (/\barticleBody\b/.test(itemprop ?? "")) {
    hint.weight += 25;
    hint.postBody = true;
  }
  return hint;
}

/**
 * Whether an element marks where the page's reader comments start: a heading named as comments ("<h3 id=comments>12
 * Comments</h3>") or an anchor target so named (<a name="comments"></a>), the markup old blog engines give a thread
 * whose entries carry no names of their own.
 */
export function marksComments(element: Element): boolean {
  const { id, name, href, class: className } = element.attribs;
  if (HEADING_LEVELS[element.name] !== undefined) return namesDiscussion(id) || namesDiscussion(className);
  return element.name === "a" && href === undefined && (namesDiscussion(id) || namesDiscussion(name));
}

const namesDiscussion = (value: string | undefined): boolean => value !== undefined && judge(value).discussion;
