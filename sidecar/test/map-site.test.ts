import zlib from "node:zlib";
import { createHostLimiter, DEFAULT_WEB_CONFIG, fetchOptionsFrom, type FetchOptions, type SidecarMapRequest } from "@edge-web/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reply, routes, send, startOrigin, type Handler, type Origin } from "../../test-support/origin.ts";
import { mapSite } from "../src/map/map-site.ts";
import { startDnsServer, type DnsServer } from "./support/dns-server.ts";
import { egressDeps } from "./support/egress.ts";

let dns: DnsServer;
let site: Origin;
let canary: Origin;
let deps: ReturnType<typeof egressDeps> & { limiter: ReturnType<typeof createHostLimiter> };
let base: string;

const xml = (body: string): Handler => send(200, "application/xml", `<?xml version="1.0" encoding="UTF-8"?>${body}`);
const urlset = (...locs: string[]) => `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.map((loc) => `<url><loc>${loc}</loc><lastmod>2026-11-0${(loc.length % 9) + 1}</lastmod></url>`).join("")}</urlset>`;
const index = (...locs: string[]) => `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.map((loc) => `<sitemap><loc>${loc}</loc></sitemap>`).join("")}</sitemapindex>`;

beforeAll(async () => {
  dns = await startDnsServer((name, type) => {
    if (type !== "A") return [];
    if (name === "site.test" || name === "docs.site.test") return ["127.0.0.2"];
    if (name === "intranet.site.test") return ["10.0.0.5"];
    if (name === "sneaky.site.test") return ["127.0.0.9"];
    return "nxdomain";
  });
  canary = await startOrigin("127.0.0.9", reply(200, "canary"));
  site = await startOrigin("127.0.0.2", (req, res, body) => table()(req, res, body));
  base = `http://site.test:${site.port}`;
  deps = { ...egressDeps(dns), limiter: createHostLimiter({ maxConcurrent: 16, maxPerHost: 8, maxQueue: 64 }) };
});

afterAll(async () => {
  await Promise.all([site?.close(), canary?.close(), dns?.close()]);
});

const table = () =>
  routes({
    "/robots.txt": send(200, "text/plain", `User-agent: *\nDisallow: /private\nSitemap: ${base}/sitemap-index.xml\n`),
    "/sitemap-index.xml": xml(index(`${base}/pages.xml`, `${base}/posts.xml.gz`, `${base}/gone.xml`)),
    "/pages.xml": xml(urlset(`${base}/`, `${base}/docs/install`, `${base}/docs/install#top`, `${base}/private/admin`, `http://intranet.site.test:${site.port}/wiki`, `http://elsewhere.test/page`)),
    "/posts.xml.gz": send(200, "application/gzip", zlib.gzipSync(`<?xml version="1.0"?>${urlset(`${base}/blog/pricing-update`, `${base}/blog/hello`)}`)),
    "/sitemap.xml": xml(urlset(`${base}/about`)),
    "/llms.txt": send(200, "text/plain", `# Site\n\n> What the site is.\n\n## Docs\n\n- [Install guide](${base}/docs/install): how to install\n- [API reference](/docs/api): every call\n- not a link\n`),
    "/": send(200, "text/html", `<!doctype html><title>Home</title><a href="/pricing">Pricing plans</a> <a href="/docs/api">API</a> <a href="mailto:x@y">mail</a> <a href="http://sneaky.site.test:${site.port}/x">sneaky</a> <a href="#frag">here</a>`),
  });

const options = (over: Partial<FetchOptions> = {}): FetchOptions => ({ ...fetchOptionsFrom(DEFAULT_WEB_CONFIG), allowHosts: ["127.0.0.2"], timeoutMs: 3_000, ...over });
const map = (over: Partial<SidecarMapRequest> = {}) => mapSite({ url: `${base}/`, sources: "all", limit: 1_000, maxSitemaps: 50, options: options(), budgetMs: 5_000, ...over }, deps);
const urls = (answer: Awaited<ReturnType<typeof map>>) => (answer.ok ? answer.value.urls.map((entry) => entry.url.replace(base, "")) : answer.error);

describe("mapSite", () => {
  it("reads robots.txt's sitemaps (an index, a gzipped part), /sitemap.xml, llms.txt and the start page's links, once per URL, within the site", async () => {
    const answer = await map();
    // Breadth first: /sitemap.xml is read beside the index, before the index's parts.
    expect(urls(answer)).toEqual(["/about", "/", "/docs/install", "/blog/pricing-update", "/blog/hello", "/docs/api", "/pricing"]);
    if (!answer.ok) throw new Error("unreachable");
    expect(answer.value.urls.find((entry) => entry.url === `${base}/docs/install`)).toEqual({ url: `${base}/docs/install`, source: "sitemap", lastmod: expect.stringMatching(/^2026-11-0\d$/), title: "Install guide" });
    expect(answer.value.urls.find((entry) => entry.url === `${base}/pricing`)).toEqual({ url: `${base}/pricing`, source: "links", title: "Pricing plans" });
    // /private/admin by robots.txt; intranet (10.0.0.5) and sneaky (127.0.0.9) by the network policy; elsewhere.test is not the site.
    expect(answer.value.counts).toEqual({ found: 10, matched: 7, skippedByPolicy: 2, skippedByRobots: 1, sitemaps: 5 });
    expect(answer.value.problems).toEqual([{ url: `${base}/gone.xml`, code: "http-status", message: "answered HTTP 404" }]);
    expect(canary.requests).toEqual([]);
  });

  it("keeps to the sources asked for, filters by every word of search in the URL or title, and stops at limit", async () => {
    // In document order; "#frag" is the page itself.
    expect(urls(await map({ sources: "links" }))).toEqual(["/pricing", "/docs/api", "/"]);
    expect(urls(await map({ sources: "sitemap", search: "PRICING" }))).toEqual(["/blog/pricing-update"]);
    expect(urls(await map({ search: "install guide" }))).toEqual(["/docs/install"]);
    const limited = await map({ limit: 2 });
    expect(urls(limited)).toEqual(["/about", "/"]);
    expect(limited.ok && limited.value.counts.matched).toBe(7);
  });

  it("reads no more sitemap files than maxSitemaps", async () => {
    const answer = await map({ sources: "sitemap", maxSitemaps: 2 });
    expect(answer.ok && answer.value.counts.sitemaps).toBe(2);
    // The index and /sitemap.xml; the index's parts are not read. llms.txt is read besides.
    expect(urls(answer)).toEqual(["/about", "/docs/install", "/docs/api"]);
  });

  it("lists nothing from a sitemap with a tag of over 100 attributes, which sax reads in time growing with their square, and reads the others", async () => {
    const crowded = await startOrigin("127.0.0.2", (req, res, body) =>
      routes({
        "/robots.txt": send(200, "text/plain", `Sitemap: ${crowdedBase}/pages.xml\n`),
        "/pages.xml": xml(urlset(`${crowdedBase}/listed`)),
        // 125,000 attributes on one tag (1 MB).
        "/sitemap.xml": xml(urlset(`${crowdedBase}/hidden`).replace("<url>", `<url ${Array.from({ length: 125_000 }, (_, i) => `a${i}="1"`).join(" ")}>`)),
        "/": send(200, "text/html", "<!doctype html><title>Crowded</title>"),
      })(req, res, body),
    );
    const crowdedBase = `http://site.test:${crowded.port}`;
    try {
      const answer = await map({ url: `${crowdedBase}/`, sources: "sitemap" });
      expect(answer.ok && answer.value.urls.map((entry) => entry.url)).toEqual([`${crowdedBase}/listed`]);
      expect(answer.ok && answer.value.counts.sitemaps).toBe(2);
    } finally {
      await crowded.close();
    }
  });

  it("fails as fetch_content does when the network policy refuses the start URL, reading nothing", async () => {
    const before = site.requests.length;
    const refused = await map({ url: `http://intranet.site.test:${site.port}/` });
    expect(refused.ok || refused.error.code).toBe("blocked");
    expect((await map({ url: "ftp://site.test/" })).ok).toBe(false);
    expect(site.requests.length).toBe(before);
  });
});
