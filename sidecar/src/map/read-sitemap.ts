import { Readable } from "node:stream";
import zlib from "node:zlib";
import { ErrorLevel, XMLToSitemapIndexStream, XMLToSitemapItemStream } from "sitemap";
import { linkTarget } from "../extract/page-links.ts";

/** The sitemaps protocol's own bound: 50,000 URLs and 50 MB uncompressed per file. */
const MAX_ENTRIES = 50_000;

export interface SitemapUrl {
  url: string;
  lastmod?: string;
  title?: string;
}

/** What one sitemap file lists: pages (a urlset) or further sitemaps (an index). */
export interface SitemapContent {
  urls: SitemapUrl[];
  sitemaps: string[];
}

const isGzip = (bytes: Uint8Array) => bytes[0] === 0x1f && bytes[1] === 0x8b;

/**
 * A file with a tag of more attributes than this is not read. sax checks each attribute against the tag's earlier ones
 * one by one, so one tag of 125,000 attributes (1 MB) took 25 s on the thread that serves every fetch; a sitemap's
 * tags have a handful (the urlset's namespaces).
 */
const MAX_TAG_ATTRIBUTES = 100;

/** Whether some tag holds more than MAX_TAG_ATTRIBUTES "=" signs between its "<" and its ">", counted in one pass. */
function hasCrowdedTag(xml: string): boolean {
  let signs = -1; // outside a tag
  for (let i = 0; i < xml.length; i++) {
    const code = xml.charCodeAt(i);
    if (code === 0x3c) signs = 0;
    else if (code === 0x3e) signs = -1;
    else if (code === 0x3d && signs >= 0 && ++signs > MAX_TAG_ATTRIBUTES) return true;
  }
  return false;
}

/** Items a sitemaps parser (the `sitemap` package, on sax) yields, read quietly: an invalid entry is skipped, never logged. */
function parse<T>(xml: string, parser: NodeJS.ReadWriteStream): Promise<T[]> {
  return new Promise((resolve, reject) => {
    const items: T[] = [];
    Readable.from([xml])
      .pipe(parser)
      .on("data", (item: T) => {
        if (items.length < MAX_ENTRIES) items.push(item);
      })
      .on("end", () => resolve(items))
      .on("error", reject);
  });
}

/**
 * A sitemap file's pages or sitemaps (a gzipped file is inflated up to `maxBytes`), each an absolute
 * http(s) URL without its fragment; a file that is neither, or has a tag of over MAX_TAG_ATTRIBUTES attributes, lists
 * nothing.
 */
export async function readSitemap(bytes: Uint8Array, fileUrl: URL, maxBytes: number): Promise<SitemapContent> {
  let body = bytes;
  if (isGzip(body)) {
    try {
      body = zlib.gunzipSync(body, { maxOutputLength: maxBytes });
    } catch {
      return { urls: [], sitemaps: [] };
    }
  }
  const xml = new TextDecoder().decode(body);
  if (hasCrowdedTag(xml)) return { urls: [], sitemaps: [] };
  const quiet = { level: ErrorLevel.SILENT, logger: false as const };
  const [pages, index] = await Promise.all([
    parse<{ url: string; lastmod?: string; news?: { title?: string } }>(xml, new XMLToSitemapItemStream(quiet)).catch(() => []),
    parse<{ url: string }>(xml, new XMLToSitemapIndexStream(quiet)).catch(() => []),
  ]);
  const urls: SitemapUrl[] = [];
  for (const page of pages) {
    // The parser answers an entry it refused (not an absolute http(s) URL) with an empty one.
    const url = page.url && linkTarget(page.url, fileUrl);
    if (!url) continue;
    const title = page.news?.title?.trim();
    urls.push({ url, ...(page.lastmod && { lastmod: page.lastmod }), ...(title && { title }) });
  }
  const sitemaps = index.flatMap((entry) => (entry.url && linkTarget(entry.url, fileUrl)) || []);
  return { urls, sitemaps };
}
