import zlib from "node:zlib";
import { startOrigin, type Origin } from "./origin.ts";

/** Pages of the generated site's docs and blog sections. */
export const DOCS_PAGES = 150;
export const BLOG_PAGES = 120;

export interface CrawlSite {
  origin: Origin;
  url: string;
  /** The most requests the site served at once since it started or was last reset (it counts them in flight). */
  maxInFlight(): number;
  resetMaxInFlight(): void;
  /** Paths requested, in order. */
  paths(): string[];
  close(): Promise<void>;
}

const html = (title: string, body: string) => `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;
const para = (title: string) => `<p>${title} is a page of the generated test site, with enough words to be read as the main content of its page.</p>`;
const link = (href: string, text = href) => `<a href="${href}">${text}</a>`;

/**
 * A site to crawl, on one loopback address: ~300 pages in a docs section (a chain with links back,
 * so cycles), a blog section, a sitemap index (robots.txt's Sitemap line) with a plain and a gzipped
 * part, llms.txt, robots.txt disallowing /private, an endless calendar (?month=, each linking the
 * next), a faceted search (?color=&size=, each linking more facets), pages that fail (404, 500),
 * a slow page, a huge page, and links that leave for `outside` addresses (the canary, private ranges).
 */
export async function startCrawlSite(host: string, outside: { canary: string; privateUrl: string; loopbackName: string }, options: { delayMs?: number } = {}): Promise<CrawlSite> {
  let inFlight = 0;
  let maxInFlight = 0;
  const paths: string[] = [];
  let base = "";
  const page = (path: string, query: URLSearchParams): { status: number; type: string; body: string | Buffer } | undefined => {
    if (path === "/robots.txt") return { status: 200, type: "text/plain", body: `User-agent: *\nDisallow: /private\nSitemap: ${base}/sitemap_index.xml\n` };
    if (path === "/sitemap_index.xml") return { status: 200, type: "application/xml", body: `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${base}/sitemap-docs.xml</loc></sitemap><sitemap><loc>${base}/sitemap-blog.xml.gz</loc></sitemap></sitemapindex>` };
    const urlset = (locs: string[]) => `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.map((loc) => `<url><loc>${base}${loc}</loc><lastmod>2026-11-20</lastmod></url>`).join("")}</urlset>`;
    if (path === "/sitemap-docs.xml") return { status: 200, type: "application/xml", body: urlset(Array.from({ length: DOCS_PAGES }, (_, i) => `/docs/${i + 1}`)) };
    if (path === "/sitemap-blog.xml.gz") return { status: 200, type: "application/gzip", body: zlib.gzipSync(urlset(Array.from({ length: BLOG_PAGES }, (_, i) => `/blog/${i + 1}`))) };
    if (path === "/sitemap.xml") return { status: 404, type: "text/plain", body: "" };
    if (path === "/llms.txt") return { status: 200, type: "text/plain", body: `# Test site\n\n- [Docs start](${base}/docs/1): the first page\n- [Pricing](${base}/pricing): plans\n` };
    if (path === "/") {
      const links = [link("/docs/1", "Docs"), link("/blog/1", "Blog"), link("/pricing", "Pricing"), link("/calendar?month=2026-01", "Calendar"), link("/search?color=red", "Search"), link("/private/secret", "Secret"), link("/missing"), link("/broken"), link("/slow"), link("/huge"), link(`${outside.canary}/canary`, "canary"), link(outside.privateUrl, "intranet"), link(outside.loopbackName, "named")];
      return { status: 200, type: "text/html", body: html("Home", para("Home") + links.join(" ")) };
    }
    const docs = /^\/docs\/(\d+)$/.exec(path);
    if (docs) {
      const n = Number(docs[1]);
      return n > DOCS_PAGES ? undefined : { status: 200, type: "text/html", body: html(`Docs ${n}`, para(`Docs ${n}`) + link(`/docs/${n + 1}`, "Next") + link(`/docs/${Math.max(1, n - 1)}`, "Previous") + link("/", "Home")) };
    }
    const blog = /^\/blog\/(\d+)$/.exec(path);
    if (blog) {
      const n = Number(blog[1]);
      return n > BLOG_PAGES ? undefined : { status: 200, type: "text/html", body: html(`Post ${n}`, para(`Post ${n}`) + link(`/blog/${n + 1}`, "Older") + link("/", "Home")) };
    }
    if (path === "/slow") return { status: 200, type: "text/html", body: html("Slow", para("Slow")) };
    if (path === "/pricing") return { status: 200, type: "text/html", body: html("Pricing", para("Pricing")) };
    if (path === "/private/secret") return { status: 200, type: "text/html", body: html("Secret", para("Secret")) };
    if (path === "/calendar") {
      const [y, m] = (query.get("month") ?? "2026-01").split("-").map(Number) as [number, number];
      const next = m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, "0")}`;
      return { status: 200, type: "text/html", body: html(`Calendar ${y}-${m}`, para("Calendar") + link(`/calendar?month=${next}`, "Next month")) };
    }
    if (path === "/search") {
      const colors = ["red", "green", "blue", "black", "white"];
      const sizes = ["s", "m", "l", "xl"];
      const facets = colors.flatMap((color) => sizes.map((size) => link(`/search?color=${color}&size=${size}&page=${(Number(query.get("page")) || 0) + 1}`, `${color} ${size}`)));
      return { status: 200, type: "text/html", body: html("Search", para("Search") + facets.join(" ")) };
    }
    if (path === "/broken") return { status: 500, type: "text/plain", body: "broken" };
    if (path === "/huge") return { status: 200, type: "text/html", body: html("Huge", `<p>${"A long sentence of the huge page. ".repeat(60_000)}</p>`) };
    return undefined;
  };
  const origin = await startOrigin(
    host,
    (req, res) => {
      const url = new URL(req.url ?? "/", "http://site");
      paths.push(`${url.pathname}${url.search}`);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const done = () => {
        inFlight--;
      };
      const answer = page(url.pathname, url.searchParams);
      const delay = url.pathname === "/slow" ? 1_500 : (options.delayMs ?? 0);
      setTimeout(() => {
        if (!answer) res.writeHead(404, { "content-type": "text/plain" }).end("not found", done);
        else res.writeHead(answer.status, { "content-type": answer.type }).end(answer.body, done);
      }, delay);
    },
    { record: false },
  );
  base = origin.url;
  return {
    origin,
    url: origin.url,
    maxInFlight: () => maxInFlight,
    resetMaxInFlight: () => {
      maxInFlight = inFlight;
    },
    paths: () => [...paths],
    close: () => origin.close(),
  };
}
