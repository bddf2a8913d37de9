import type { Handler } from "./origin.ts";

/** What an origin page of `cacheOriginRoutes` saw: full answers, 304s, and the validators each request carried. */
export interface PageLog {
  full: number;
  notModified: number;
  conditional: Array<{ ifNoneMatch?: string; ifModifiedSince?: string }>;
}

/**
 * Pages for fetch cache tests, each keeping its own state per path and query (so every test asks
 * for pages of its own by adding a query):
 * - `/cache/changing`: a text page that says how many times it has been read;
 * - `/cache/validated`: a page with an ETag and a Last-Modified (`?only=etag` or
 *   `?only=last-modified`: just that one), answering 304 to a request whose validator still matches;
 * - `/cache/change?page=<path and query>`: makes that validated page a new version;
 * - `/cache/no-store`, `/cache/private`: changing pages answered with `Cache-Control: no-store`
 *   and `private, max-age=600`;
 * - `/cache/fails-once`: 500 on its first read, the page after;
 * - `/cache/log?page=<path and query>`: that page's `PageLog` as JSON.
 */
export function cacheOriginRoutes(): Record<string, Handler> {
  const logs = new Map<string, PageLog>();
  const versions = new Map<string, number>();
  const failed = new Set<string>();
  const logOf = (page: string) => logs.get(page) ?? logs.set(page, { full: 0, notModified: 0, conditional: [] }).get(page)!;
  const text = (status: number, body: string, headers: Record<string, string> = {}): Handler => (_req, res) =>
    void res.writeHead(status, { "content-type": "text/plain; charset=utf-8", ...headers }).end(body);
  const readNumber = (page: string) => ++logOf(page).full;
  const param = (url: string | undefined, name: string) => new URL(url ?? "/", "http://origin").searchParams.get(name) ?? "";
  return {
    "/cache/changing": (req, res, body) => text(200, `Read ${readNumber(req.url ?? "")} of this page.`)(req, res, body),
    "/cache/no-store": (req, res, body) => text(200, `Read ${readNumber(req.url ?? "")} of this page.`, { "cache-control": "no-store" })(req, res, body),
    "/cache/private": (req, res, body) => text(200, `Read ${readNumber(req.url ?? "")} of this page.`, { "cache-control": "private, max-age=600" })(req, res, body),
    "/cache/fails-once": (req, res, body) => {
      const page = req.url ?? "";
      if (failed.has(page)) return text(200, `Read ${readNumber(page)} of this page since it failed.`)(req, res, body);
      failed.add(page);
      text(500, "Try again.")(req, res, body);
    },
    "/cache/validated": (req, res, body) => {
      const page = req.url ?? "";
      const version = versions.get(page) ?? 1;
      const only = param(page, "only");
      const etag = `"v${version}"`;
      const lastModified = new Date(Date.UTC(2025, 0, version)).toUTCString();
      const headers = { ...(only !== "last-modified" && { etag }), ...(only !== "etag" && { "last-modified": lastModified }) };
      const ifNoneMatch = req.headers["if-none-match"];
      const ifModifiedSince = req.headers["if-modified-since"];
      const log = logOf(page);
      if (ifNoneMatch !== undefined || ifModifiedSince !== undefined) log.conditional.push({ ...(ifNoneMatch !== undefined && { ifNoneMatch }), ...(ifModifiedSince !== undefined && { ifModifiedSince }) });
      // RFC 9110 §13.2.2: If-None-Match decides when present; If-Modified-Since only without it.
      const unchanged = ifNoneMatch !== undefined ? "etag" in headers && ifNoneMatch === etag : ifModifiedSince !== undefined && "last-modified" in headers && Date.parse(ifModifiedSince) >= Date.parse(lastModified);
      if (unchanged) {
        log.notModified++;
        return void res.writeHead(304, headers).end();
      }
      return text(200, `Version ${version} of this page, full read ${++log.full}.`, headers)(req, res, body);
    },
    "/cache/change": (req, res, body) => {
      const page = param(req.url, "page");
      versions.set(page, (versions.get(page) ?? 1) + 1);
      text(200, "changed")(req, res, body);
    },
    "/cache/log": (req, res) => void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(logOf(param(req.url, "page")))),
  };
}
