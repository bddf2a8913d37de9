import { Parser } from "htmlparser2";

/** Longest URL a map or crawl keeps: longer ones are the mark of a generated space (session ids, filters), not of a page. */
export const MAX_URL_CHARS = 2_048;
/** The most links read from one page (a map's start page, a crawl's page). */
export const MAX_PAGE_LINKS = 5_000;
/** Longest link text kept as a URL's title. */
const MAX_TITLE_CHARS = 200;

export interface PageLink {
  url: string;
  title?: string;
}

/** A link's target as a map keeps it: absolute, http(s), without its fragment; undefined for anything else. */
export function linkTarget(href: string, base: URL): string | undefined {
  const url = URL.parse(href.trim(), base.href);
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) return undefined;
  url.hash = "";
  return url.href.length <= MAX_URL_CHARS ? url.href : undefined;
}

/**
 * The distinct http(s) links of an HTML page in document order (a `<base href>` honoured), each with
 * its text, at most `max`. `rel="nofollow"` links are kept: they name pages of the site as well.
 */
export function pageLinks(html: string, pageUrl: URL, max: number): PageLink[] {
  const links = new Map<string, PageLink>();
  let base = pageUrl;
  let open: { url: string; text: string } | undefined;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === "base" && attrs.href && links.size === 0) base = URL.parse(attrs.href, pageUrl.href) ?? base;
        if (name !== "a" || attrs.href === undefined) return;
        const url = linkTarget(attrs.href, base);
        open = url ? { url, text: "" } : undefined;
      },
      ontext(text) {
        if (open && open.text.length < MAX_TITLE_CHARS) open.text += text;
      },
      onclosetag(name) {
        if (name !== "a" || !open) return;
        if (!links.has(open.url) && links.size < max) {
          const title = open.text.replace(/\s+/g, " ").trim().slice(0, MAX_TITLE_CHARS);
          links.set(open.url, { url: open.url, ...(title && { title }) });
        }
        open = undefined;
        if (links.size >= max) parser.pause();
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  return [...links.values()];
}
