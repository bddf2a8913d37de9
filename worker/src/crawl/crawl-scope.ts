import type { PathGlobs } from "./path-globs.ts";

/** Longest URL a crawl follows: longer ones carry generated state (session ids, encoded filters), not pages. */
export const MAX_CRAWL_URL_CHARS = 2_048;
/** A path with one segment this many times over is a generated space (/a/b/a/b/…, calendars that nest). */
const MAX_SEGMENT_REPEATS = 3;

export type ScopeVerdict = { follow: true; url: string } | { follow: false; why: "filter" | "trap" };

export interface CrawlScope {
  start: URL;
  maxDepth: number;
  allowSubdomains: boolean;
  allowExternal: boolean;
  include: PathGlobs | undefined;
  exclude: PathGlobs | undefined;
}

/** The form a URL is known by in the seen set: WHATWG-normalised, without its fragment, its query's parameters sorted. */
export function normalizeUrl(raw: string, base?: string): URL | undefined {
  const url = URL.parse(raw, base);
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) return undefined;
  url.hash = "";
  url.searchParams.sort();
  if (url.search === "?") url.search = "";
  return url;
}

function repeatsItself(path: string): boolean {
  const counts = new Map<string, number>();
  for (const segment of path.split("/")) {
    if (!segment) continue;
    const n = (counts.get(segment) ?? 0) + 1;
    if (n > MAX_SEGMENT_REPEATS) return true;
    counts.set(segment, n);
  }
  return false;
}

/**
 * Whether a link found at `depth - 1` is followed: within the site (the start host; its subdomains
 * or other sites when allowed), within the path globs and depth, and not the mark of a generated
 * space. How many query variants of a path are followed is the frontier's to count.
 */
export function judgeLink(url: URL, depth: number, scope: CrawlScope): ScopeVerdict {
  if (url.href.length > MAX_CRAWL_URL_CHARS || repeatsItself(url.pathname)) return { follow: false, why: "trap" };
  if (depth > scope.maxDepth) return { follow: false, why: "filter" };
  const host = url.hostname;
  const startHost = scope.start.hostname;
  const sameHost = host === startHost;
  const subdomain = host.endsWith(`.${startHost.replace(/^www\./, "")}`) || host === startHost.replace(/^www\./, "");
  if (!sameHost && !(scope.allowSubdomains && subdomain) && !scope.allowExternal) return { follow: false, why: "filter" };
  if (scope.include && !scope.include(url.pathname)) return { follow: false, why: "filter" };
  if (scope.exclude?.(url.pathname)) return { follow: false, why: "filter" };
  return { follow: true, url: url.href };
}
