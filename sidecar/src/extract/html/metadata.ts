import type { Document, Element, ParentNode } from "domhandler";
import { isElement, isText, shortText, textContent, walk } from "../dom.ts";
import { isHidden } from "./visibility.ts";
import { declaresType, summarizeJsonLd } from "../json-ld.ts";
import { jsonLdHtml } from "../json-ld-html.ts";
import { readsAsTitle, repeatsTitle, type TitleWords, titleWordsOf } from "../repeats-title.ts";
import { resolveUrl } from "../resolve-url.ts";
import { linkTarget } from "../page-links.ts";
import { isBlank, isHtmlSpace, oneLine } from "../whitespace.ts";

/**
 * What a page says about itself (in <head> and JSON-LD): title, metadata, the base URL for its links; and what
 * one walk over it learns besides: how much text it shows, and where its main-content markers are.
 */
export interface PageInfo {
  title?: string;
  metadata: Record<string, string>;
  /** <base href> resolved against the page URL, else the page URL. */
  baseUrl: string;
  /** The words of every title the page declares (<title>, og:title, twitter:title, JSON-LD headline): how its headline may read. */
  titles: TitleWords[];
  /** The <body>, or the document when there is none. */
  body: ParentNode;
  /**
   * How much text the body shows and how many <script> elements the page has: a thin body with many scripts
   * is likely rendered client-side. Text counts as a browser shows it: visible elements only, whitespace runs
   * as one space, trimmed.
   */
  signals: PageSignals;
  /** Elements with the page's own main-content marker inside (<main>, role=main, schema.org articleBody). */
  holdsMain: ReadonlySet<Element>;
  /** Forms with a box to write in (a <textarea>): comment and reply forms. */
  writingForms: ReadonlySet<Element>;
  /** Forms with a line to type in (an email address, a search): sign-up, log-in and search boxes. */
  lineForms: ReadonlySet<Element>;
  /** The longest text the page's JSON-LD gives for its content, as HTML (an articleBody, a how-to's steps). */
  structuredHtml?: string;
  /** The headline: the visible <h1> that repeats a declared title, else the first one. */
  headline?: Element;
  /** Whether the headline repeats a declared title (else it is only the first <h1>). */
  headlineRepeatsTitle: boolean;
  /** Elements with the headline inside. */
  holdsHeadline: ReadonlySet<Element>;
  /**
   * Whether the page's JSON-LD declares it a forum topic (schema.org's DiscussionForumPosting, as search engines ask
   * forums to mark up their threads): its comments are the topic's replies, the thread the page is for.
   */
  forumTopic: boolean;
  /** The page's own addresses as links are read (page-links.ts linkTarget), its URL and its canonical URL: where a post's permalink points. */
  addresses: ReadonlySet<string>;
}

/**
 * How much text the body shows and how many <script> elements the page has; present only when true:
 * an app's mount point (see isAppRoot) that shows no text, and a <noscript> asking for JavaScript.
 */
export interface PageSignals {
  /** Counted up to MAX_COUNTED_CHARS: what reads it asks whether a page shows little, and counting costs a pass over every character. */
  bodyTextChars: number;
  scriptTags: number;
  emptyAppRoot?: true;
  noscriptAsksForScript?: true;
}

/**
 * The element a client-side framework mounts into: React's and Vue's customary #root / #app, Next.js'
 * #__next, Nuxt's #__nuxt, Gatsby's #___gatsby, an element React rendered on the server
 * ([data-reactroot]), Angular's <app-root>.
 */
const APP_ROOT_IDS = new Set(["root", "app", "__next", "__nuxt", "___gatsby"]);
const isAppRoot = (element: Element) => APP_ROOT_IDS.has(element.attribs.id ?? "") || element.attribs["data-reactroot"] !== undefined || element.name === "app-root";

/** "Please enable JavaScript", "This app requires JavaScript", "JavaScript is disabled", "You need to turn on JavaScript"… */
const ASKS_FOR_SCRIPT = /\b(?:enabl\w*|requir\w*|need\w*|turn(?:ed)? on|activat\w*|allow\w*|disabled|switch(?:ed)? on)\b[^.!?]{0,40}\bjavascript\b|\bjavascript\b[^.!?]{0,40}\b(?:enabl\w*|requir\w*|needed|disabled|turn(?:ed)? off|must be)\b/i;

/**
 * A heading longer than this repeats no title: a title is a line, and a heading left open holds the page after it
 * (nested ones each hold the rest of it, so reading each whole is the page's text read once per heading).
 */
const MAX_TITLE_CHARS = 1000;

/** Shown text is counted this far; every threshold read from it (a short page, an app shell) is far below. */
export const MAX_COUNTED_CHARS = 10_000;

/**
 * Shown characters, with each run of whitespace between words counted as one space, up to MAX_COUNTED_CHARS;
 * and how many text nodes showed any, counted whole (an app root is empty when none appeared inside it).
 */
class ShownText {
  chars = 0;
  pieces = 0;
  private pendingSpace = false;

  add(data: string): void {
    if (this.chars >= MAX_COUNTED_CHARS) {
      if (!isBlank(data)) this.pieces++;
      return;
    }
    const before = this.chars;
    for (let i = 0; i < data.length; i++) {
      if (isHtmlSpace(data.charCodeAt(i))) {
        this.pendingSpace = this.chars > 0;
      } else {
        if (this.pendingSpace) this.chars++;
        this.pendingSpace = false;
        this.chars++;
        if (this.chars >= MAX_COUNTED_CHARS) break;
      }
    }
    this.chars = Math.min(this.chars, MAX_COUNTED_CHARS);
    if (this.chars > before) this.pieces++;
  }
}

function isMainMarker(element: Element): boolean {
  const { role, itemprop } = element.attribs;
  return element.name === "main" || role === "main" || (itemprop !== undefined && /\barticleBody\b/.test(itemprop));
}

/** Inputs that take a line of text (an input without a type is one). */
const LINE_INPUTS = new Set(["text", "email", "search", "tel", "url", "password", "number"]);

/** Adds element's ancestors to holders, stopping at the first one already there (its ancestors are too). */
function addAncestors(element: Element, holders: Set<Element>): void {
  for (let parent = element.parent; parent && isElement(parent) && !holders.has(parent); parent = parent.parent) holders.add(parent);
}

export function readPageInfo(document: Document, pageUrl: string): PageInfo {
  const meta = new Map<string, string>();
  const jsonLd: string[] = [];
  let titleElement: Element | undefined;
  let firstH1: Element | undefined;
  let baseHref: string | undefined;
  let canonicalHref: string | undefined;
  let language: string | undefined;
  let body: Element | undefined;
  let scriptTags = 0;
  // Without a <body> element (a fragment), all of the document is its body.
  const inBodyText = new ShownText();
  const outsideText = new ShownText();
  let inBody = false;
  let inSvg = 0;
  const hidden: Element[] = []; // open hidden elements; text under any of them is not shown
  const holdsMain = new Set<Element>();
  const openForms: Element[] = [];
  const writingForms = new Set<Element>();
  const lineForms = new Set<Element>();
  const headings: Element[] = []; // visible <h1>s
  const subheadings: Element[] = []; // visible <h2>s and <h3>s: old blog engines set a post's title in them
  let emptyAppRoot = false;
  let noscriptAsksForScript = false;
  const appRoots: Array<{ element: Element; piecesBefore: number }> = []; // open app roots, with the text nodes shown before each

  walk(
    document,
    (node) => {
      if (isText(node)) {
        if (hidden.length === 0) (inBody ? inBodyText : outsideText).add(node.data);
        return false;
      }
      if (!isElement(node)) return false;
      const { name, attribs } = node;
      if (name === "script") {
        // Scripts in hidden elements (head, template) count too; their text is code, not shown.
        scriptTags++;
        if (attribs.type?.trim().toLowerCase() === "application/ld+json") jsonLd.push(textContent(node));
        return false;
      }
      if (name === "noscript" && !noscriptAsksForScript) noscriptAsksForScript = ASKS_FOR_SCRIPT.test(textContent(node));
      if (isHidden(node)) hidden.push(node);
      // A hidden root's text is not counted as shown, so only a visible one can be told empty.
      else if (hidden.length === 0 && isAppRoot(node)) appRoots.push({ element: node, piecesBefore: inBodyText.pieces + outsideText.pieces });
      if (isMainMarker(node)) addAncestors(node, holdsMain);
      if (name === "form") openForms.push(node);
      if (name === "textarea") for (const form of openForms) writingForms.add(form);
      if (name === "input" && LINE_INPUTS.has((attribs.type ?? "text").trim().toLowerCase())) for (const form of openForms) lineForms.add(form);
      switch (name) {
        case "body":
          body ??= node;
          inBody = node === body;
          break;
        case "svg":
          inSvg++; // its <title> is an image caption, not the page title
          break;
        case "title":
          if (inSvg === 0) titleElement ??= node;
          break;
        case "h1":
          firstH1 ??= node;
          if (hidden.length === 0) headings.push(node);
          break;
        case "h2":
        case "h3":
          if (hidden.length === 0) subheadings.push(node);
          break;
        case "meta": {
          const key = (attribs.name ?? attribs.property)?.trim().toLowerCase();
          const content = attribs.content?.trim();
          if (key && content && !meta.has(key)) meta.set(key, content);
          break;
        }
        case "link":
          if (canonicalHref === undefined && attribs.href && /(?:^|\s)canonical(?:\s|$)/i.test(attribs.rel ?? "")) {
            canonicalHref = attribs.href;
          }
          break;
        case "base":
          baseHref ??= attribs.href;
          break;
        case "html":
          language ??= attribs.lang?.trim() || undefined;
          break;
      }
      return true;
    },
    (node) => {
      // Stack tops are read with at(-1): index -1 of an empty array (the stacks are mostly empty) is a property lookup
      // through the prototypes in V8, 25 times as slow (3 % of an extraction, read for every element here).
      if (node === hidden.at(-1)) hidden.pop();
      const root = appRoots.at(-1);
      if (root?.element === node) {
        appRoots.pop();
        if (inBodyText.pieces + outsideText.pieces === root.piecesBefore) emptyAppRoot = true;
      }
      if (node === body) inBody = false;
      if (isElement(node) && node.name === "svg") inSvg--;
      if (node === openForms.at(-1)) openForms.pop();
    },
  );

  const baseUrl = (baseHref !== undefined ? resolveUrl(baseHref, pageUrl) : undefined) ?? pageUrl;
  const documents = jsonLd.flatMap((source) => {
    try {
      return [JSON.parse(source) as unknown];
    } catch {
      return []; // broken JSON-LD is common and only ever a fallback source
    }
  });
  const summaries = documents.map(summarizeJsonLd);
  let structuredHtml: string | undefined;
  for (const value of documents) {
    const html = jsonLdHtml(value);
    if (html && html.length > (structuredHtml?.length ?? 0)) structuredHtml = html;
  }
  const ldAuthors = summaries.find((s) => s && s.authors.length > 0)?.authors.join(", ");
  const ldPublished = summaries.find((s) => s?.datePublished)?.datePublished;

  const found: [string, string | undefined][] = [
    ["description", meta.get("description") ?? meta.get("og:description") ?? meta.get("twitter:description")],
    ["siteName", meta.get("og:site_name")],
    ["author", meta.get("author") ?? ldAuthors],
    ["publishedTime", meta.get("article:published_time") ?? ldPublished],
    ["language", language],
    ["canonical", canonicalHref !== undefined ? resolveUrl(canonicalHref, baseUrl) : undefined],
  ];
  const metadata: Record<string, string> = {};
  for (const [key, value] of found) if (value) metadata[key] = value;
  const addresses = new Set<string>();
  const base = URL.parse(baseUrl);
  for (const href of [pageUrl, canonicalHref]) {
    const address = base && href !== undefined ? linkTarget(href, base) : undefined;
    if (address) addresses.add(address);
  }

  const declared = (titleElement && oneLine(textContent(titleElement))) || undefined;
  const titles = titleWordsOf(
    [declared, meta.get("og:title"), meta.get("twitter:title"), ...summaries.map((s) => s?.title)].filter((value): value is string => value !== undefined),
  );
  // The headline is the <h1> that repeats a declared title, else the first: other <h1>s head boxes (a newsletter's).
  // Under the blog's name (an <h1> or none), a post's title set in an <h2> or <h3> is the headline when it reads as the whole title.
  let titled = headings.find((heading) => repeatsTitle(shortText(heading, MAX_TITLE_CHARS) ?? "", titles));
  titled ??= subheadings.find((heading) => readsAsTitle(shortText(heading, MAX_TITLE_CHARS) ?? "", titles));
  const headline = titled ?? headings[0];
  const holdsHeadline = new Set<Element>();
  if (headline) addAncestors(headline, holdsHeadline);
  const title = declared || meta.get("og:title") || (firstH1 && oneLine(textContent(firstH1))) || undefined;
  const page = {
    metadata,
    baseUrl,
    titles,
    body: body ?? document,
    signals: {
      bodyTextChars: (body ? inBodyText : outsideText).chars,
      scriptTags,
      ...(emptyAppRoot ? { emptyAppRoot: true as const } : {}),
      ...(noscriptAsksForScript ? { noscriptAsksForScript: true as const } : {}),
    },
    holdsMain,
    writingForms,
    lineForms,
    holdsHeadline,
    addresses,
    forumTopic: documents.some((value) => declaresType(value, "DiscussionForumPosting")),
    ...(headline ? { headline } : {}),
    headlineRepeatsTitle: titled !== undefined,
    ...(structuredHtml ? { structuredHtml } : {}),
  };
  return title ? { title, ...page } : page;
}
