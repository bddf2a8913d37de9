import type { Document, Element } from "domhandler";
import { isElement, textContent, walk } from "./dom.ts";
import { summarizeJsonLd } from "./json-ld.ts";
import { resolveUrl } from "./resolve-url.ts";
import { oneLine } from "./whitespace.ts";

/** What a page says about itself in <head> (and JSON-LD): title, metadata, and the base URL for its links. */
export interface PageInfo {
  title?: string;
  metadata: Record<string, string>;
  /** <base href> resolved against the page URL, else the page URL. */
  baseUrl: string;
  /** Every title the page declares (<title>, og:title, twitter:title, JSON-LD headline): how its headline may read. */
  titles: string[];
}

export function readPageInfo(document: Document, pageUrl: string): PageInfo {
  const meta = new Map<string, string>();
  const jsonLd: string[] = [];
  let titleElement: Element | undefined;
  let firstH1: Element | undefined;
  let baseHref: string | undefined;
  let canonicalHref: string | undefined;
  let language: string | undefined;

  walk(document, (node) => {
    if (!isElement(node)) return false;
    const { name, attribs } = node;
    switch (name) {
      case "svg":
        return false; // its <title> is an image caption, not the page title
      case "title":
        titleElement ??= node;
        return false;
      case "h1":
        firstH1 ??= node;
        return false;
      case "meta": {
        const key = (attribs.name ?? attribs.property)?.trim().toLowerCase();
        const content = attribs.content?.trim();
        if (key && content && !meta.has(key)) meta.set(key, content);
        return false;
      }
      case "link":
        if (canonicalHref === undefined && attribs.href && /(?:^|\s)canonical(?:\s|$)/i.test(attribs.rel ?? "")) {
          canonicalHref = attribs.href;
        }
        return false;
      case "base":
        baseHref ??= attribs.href;
        return false;
      case "html":
        language ??= attribs.lang?.trim() || undefined;
        return true;
      case "script":
        if (attribs.type?.trim().toLowerCase() === "application/ld+json") jsonLd.push(textContent(node));
        return false;
      default:
        return true;
    }
  });

  const baseUrl = (baseHref !== undefined ? resolveUrl(baseHref, pageUrl) : undefined) ?? pageUrl;
  const summaries = jsonLd.flatMap((source) => {
    try {
      return [summarizeJsonLd(JSON.parse(source))];
    } catch {
      return []; // broken JSON-LD is common and only ever a fallback source
    }
  });
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

  const declared = (titleElement && oneLine(textContent(titleElement))) || undefined;
  const titles = [declared, meta.get("og:title"), meta.get("twitter:title"), ...summaries.map((s) => s?.title)].filter(
    (value): value is string => value !== undefined,
  );
  const title = declared || meta.get("og:title") || (firstH1 && oneLine(textContent(firstH1))) || undefined;
  return title ? { title, metadata, baseUrl, titles } : { metadata, baseUrl, titles };
}
