import { Parser } from "htmlparser2";
import type { Candidate } from "./to-search-results.ts";

interface Link {
  href: string;
  title: string;
  snippet: string;
  sponsored: boolean;
}

const classes = (attribs: Record<string, string>) => (attribs.class ?? "").split(/\s+/);
const isDuckDuckGo = (url: URL) => url.hostname === "duckduckgo.com" || url.hostname.endsWith(".duckduckgo.com");

/** Where a result link leads: DuckDuckGo's redirect (//duckduckgo.com/l/?uddg=…) decoded, any other href as written. */
function target(href: string): string {
  const link = URL.parse(href, "https://duckduckgo.com/");
  const redirect = link && isDuckDuckGo(link) && link.pathname === "/l/" ? link.searchParams.get("uddg") : null;
  return redirect ?? href;
}

/** Ads go through DuckDuckGo's click tracker. */
function isAd(url: string): boolean {
  const parsed = URL.parse(url, "https://duckduckgo.com/");
  return parsed !== null && isDuckDuckGo(parsed) && parsed.pathname === "/y.js";
}

/**
 * Results of a DuckDuckGo Lite page: each `a.result-link` starts one, and the next
 * `td.result-snippet` (in the rows that follow) is its snippet. Links in sponsored rows and
 * links to the ad tracker are dropped; a link without an href keeps an empty URL, which
 * toSearchResults drops.
 */
export function parseDdgLite(html: string): Candidate[] {
  const links: Link[] = [];
  let sponsoredRow = false;
  let inLink: Link | undefined;
  let inSnippet: Link | undefined;
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        const cls = classes(attribs);
        if (name === "tr") sponsoredRow = cls.some((c) => c.includes("sponsored"));
        else if (name === "a" && cls.includes("result-link")) {
          inLink = { href: attribs.href ?? "", title: "", snippet: "", sponsored: sponsoredRow || cls.some((c) => c.includes("sponsored")) };
          links.push(inLink);
        } else if (name === "td" && cls.includes("result-snippet")) inSnippet = links.at(-1);
      },
      ontext(text) {
        if (inLink) inLink.title += text;
        else if (inSnippet) inSnippet.snippet += text;
      },
      onclosetag(name) {
        if (name === "a") inLink = undefined;
        else if (name === "td") inSnippet = undefined;
        else if (name === "tr") sponsoredRow = false;
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  return links
    .filter((link) => !link.sponsored)
    .map((link) => ({ ...link, url: target(link.href) }))
    .filter((link) => !isAd(link.url))
    .map(({ title, url, snippet }) => ({ title, url, snippet, source: "ddgs" }));
}
