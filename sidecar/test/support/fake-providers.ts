import type http from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import {
  createHostLimiter,
  resolveConfig,
  WebConfigSchema,
  searchRequestFrom,
  type KeyedProviderName,
  type ProviderName,
  type SearchFilters,
  type SearchKeys,
  type SidecarSearchRequest,
  type WebConfigInput,
} from "@edge-web/shared";
import { afterAll, beforeAll, beforeEach, vi } from "vitest";
import { startOrigin, type Origin } from "../../../test-support/origin.ts";
import type { SearchDeps } from "../../src/search/provider.ts";
import { startDnsServer } from "./dns-server.ts";
import { egressDeps } from "./egress.ts";
import { OPERATOR_URLS_ONLY } from "../../../test-support/operator-urls.ts";

/** The keys the fakes accept; no answer, message or log may ever contain one. */
export const KEYS: Record<KeyedProviderName, string> = {
  brave: "BSA-brave-secret-9f3a1c",
  tavily: "tvly-dev-tavily-secret-4b7e2d",
  serper: "serper-secret-0c5d8e",
  openserp: "openserp-secret-6a1f9b",
};

/**
 * What a fake does with its next requests: answer results ("succeed"; "legacy" is OpenSERP's older
 * shape), answer none ("empty"), answer an HTTP status with the provider's error body (429 with
 * Retry-After: 17), never answer ("hang"), send cut JSON ("malformed"), send JSON of another shape
 * ("wrong-shape"), send a valid answer padded past 64 KiB ("oversized"), reset the connection
 * ("reset"), redirect to itself forever ("redirect-loop"), or answer DuckDuckGo's 202 challenge page
 * ("challenge"), or answer results carrying the provider's dates ("dated": www.rust-lang.org
 * published 2 days ago, en.wikipedia.org 20 days ago, doc.rust-lang.org/book/ undated).
 */
export type Behavior =
  | "succeed"
  | "legacy"
  | "empty"
  | "hang"
  | "malformed"
  | "wrong-shape"
  | "oversized"
  | "reset"
  | "redirect-loop"
  | "challenge"
  | "dated"
  | number;

export const RETRY_AFTER = "17";
const OVERSIZED_PADDING = 65_536;

export interface FakeRequest {
  provider: ProviderName;
  method: string;
  path: string;
  query: Record<string, string>;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface FakeProvider {
  name: ProviderName;
  /** What web.<name>.baseUrl should be. */
  baseUrl: string;
  requests: FakeRequest[];
  behave(behavior: Behavior): void;
  /** Waits this many milliseconds before answering each request from now on (reset: 0). */
  delay(ms: number): void;
  /** Resolves with the next request this fake receives. */
  nextRequest(): Promise<FakeRequest>;
}

export interface FakeProviders {
  fakes: Record<ProviderName, FakeProvider>;
  /** Every request to any fake, in arrival order. */
  log: FakeRequest[];
  /** Clears recorded requests and makes every fake "succeed" again. */
  reset(): void;
  close(): Promise<void>;
}

/** How one provider speaks on the wire. */
interface WireFormat {
  /** What web.<name>.baseUrl holds, under the fake's origin. */
  base: string;
  /** Where requests must go (anything else gets 404). */
  path: string;
  method: "GET" | "POST";
  contentType: string;
  /** The key the request presented, or undefined when it presented none. */
  presentedKey(headers: http.IncomingHttpHeaders): string | undefined;
  /** Whether the fake insists on a key (self-hosted ones do not). */
  needsKey: boolean;
  key?: string;
  success: string;
  legacy?: string;
  /** Results with dates as the provider writes them, made at answer time. */
  dated?: () => string;
  empty: string;
  malformed?: string;
  wrongShape?: string;
  /** The provider's error body; it echoes the presented key so tests can prove bodies are never relayed. */
  error(status: number, key: string | undefined): string;
}

const header = (headers: http.IncomingHttpHeaders, name: string) => {
  const value = headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
};
const bearer = (headers: http.IncomingHttpHeaders) => header(headers, "authorization")?.replace(/^Bearer /, "");

// DuckDuckGo Lite's markup, as served: ad blocks (one through the ad tracker, one known only by its
// sponsored rows), organic results with redirect links, a direct link, a link without a title, a
// link without a URL, and an ad hidden behind the redirect.
const DDG_HEAD = `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml">
<head>
  <meta http-equiv="content-type" content="text/html; charset=UTF-8">
  <meta name="referrer" content="origin">
  <title>rust programming at DuckDuckGo</title>
  <link rel="stylesheet" href="/lite/style.css" type="text/css">
</head>
<body>
  <p class='extra'>&nbsp;</p>
  <div class="header">DuckDuckGo</div>
  <form action="/lite/" method="post">
    <input class="query" type="text" size="40" name="q" value="rust programming" >
    <input class="submit" type="submit" value="Search">
  </form>
  <p class='extra'>&nbsp;</p>
`;
const ddgResult = (n: number, link: string, snippet: string, host: string) => `
      <tr>
        <td valign="top">${n}.&nbsp;</td>
        <td>
          ${link}
        </td>
      </tr>
      <tr>
        <td>&nbsp;&nbsp;&nbsp;</td>
        <td class='result-snippet'>
          ${snippet}
        </td>
      </tr>
      <tr>
        <td>&nbsp;&nbsp;&nbsp;</td>
        <td><span class='link-text'>${host}</span></td>
      </tr>
      <tr><td>&nbsp;</td><td>&nbsp;</td></tr>
`;
const DDG_SUCCESS = `${DDG_HEAD}
    <table border="0">
      <tr class="result-sponsored">
        <td valign="top">1.&nbsp;</td>
        <td>
          <a rel="nofollow" href="https://duckduckgo.com/y.js?ad_domain=rustcourse.example&amp;ad_provider=bingv7aa&amp;ad_type=txad&amp;u3=https%3A%2F%2Fwww.bing.com%2Faclick" class='result-link'>Learn Rust in 30 Days - Online Course</a>
        </td>
      </tr>
      <tr class="result-sponsored">
        <td>&nbsp;&nbsp;&nbsp;</td>
        <td class='result-snippet'>Sponsored course copy that must never appear.</td>
      </tr>
      <tr class="result-sponsored">
        <td>&nbsp;&nbsp;&nbsp;</td>
        <td><span class='link-text'>rustcourse.example</span> <span class='link-text'>Sponsored link</span></td>
      </tr>
      <tr><td>&nbsp;</td><td>&nbsp;</td></tr>
      <tr class="result-sponsored">
        <td valign="top">2.&nbsp;</td>
        <td>
          <a rel="nofollow" href="//duckduckgo.com/l/?uddg=https%3A%2F%2Frustjobs.example%2F&amp;rut=aa" class='result-link'>Rust Jobs Board</a>
        </td>
      </tr>
      <tr class="result-sponsored">
        <td>&nbsp;&nbsp;&nbsp;</td>
        <td class='result-snippet'>Sponsored jobs copy that must never appear.</td>
      </tr>
      <tr><td>&nbsp;</td><td>&nbsp;</td></tr>
${ddgResult(
  1,
  `<a rel="nofollow" href="//duckduckgo.com/l/?uddg=https%3A%2F%2Fwww.rust%2Dlang.org%2F&amp;rut=9c1e5e0f4d3b2a1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f" class='result-link'>Rust Programming Language</a>`,
  `A language empowering everyone to build <b>reliable</b> and efficient software.`,
  "www.rust-lang.org",
)}${ddgResult(
  2,
  `<a rel="nofollow" href="//duckduckgo.com/l/?uddg=https%3A%2F%2Fen.wikipedia.org%2Fwiki%2FRust_(programming_language)%3Fa%3D1%26b%3D2&amp;rut=1a2b" class='result-link'>Rust (programming language) &amp; its &#x27;borrow checker&#x27; - Wikipedia</a>`,
  `Rust is a   general-purpose <b>programming</b> language &mdash; emphasizing performance.`,
  "en.wikipedia.org",
)}${ddgResult(
  3,
  `<a rel="nofollow" href="https://doc.rust-lang.org/book/" class='result-link'></a>`,
  `The Rust Programming Language book.`,
  "doc.rust-lang.org",
)}${ddgResult(
  4,
  `<a rel="nofollow" class='result-link'>A result without a link</a>`,
  `This snippet belongs to a result without a URL.`,
  "",
)}${ddgResult(
  5,
  `<a rel="nofollow" href="//duckduckgo.com/l/?uddg=https%3A%2F%2Fduckduckgo.com%2Fy.js%3Fad_domain%3Dtracker.example&amp;rut=ff" class='result-link'>Tracked ad</a>`,
  `An ad behind the redirect.`,
  "tracker.example",
)}${ddgResult(
  6,
  `<a rel="nofollow" href="//duckduckgo.com/l/?uddg=https%3A%2F%2Fcrates.io%2F&amp;rut=0d" class='result-link'>crates.io: Rust Package Registry</a>`,
  ``,
  "crates.io",
)}
    </table>
</body>
</html>`;
const DDG_EMPTY = `${DDG_HEAD}
    <table border="0">
      <tr><td>No results.</td></tr>
    </table>
</body>
</html>`;
const DDG_CHALLENGE = `<!DOCTYPE html><html><head><title>DuckDuckGo</title></head><body>
<form id="challenge-form" action="//duckduckgo.com/anomaly.js?sv=lite&amp;cc=botnet&amp;ti=1" method="POST">
<div class="anomaly-modal__title">Unfortunately, bots use DuckDuckGo too.</div>
<div class="anomaly-modal__description">Please complete the following challenge to confirm this search was made by a human.</div>
</form></body></html>`;

const json = (value: unknown) => JSON.stringify(value);

const DAY_MS = 86_400_000;
/** A time `days` ago, for dated answers. */
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS);
/** ISO 8601 without a zone, as SearXNG and Brave's page_age write it. */
const zoneless = (date: Date) => date.toISOString().slice(0, 19);
const DATED = { recent: "https://www.rust-lang.org/", older: "https://en.wikipedia.org/wiki/Rust_(programming_language)", undated: "https://doc.rust-lang.org/book/" };

const BRAVE_RESULTS = [
  {
    title: "The <strong>Rust</strong> Programming Language",
    url: "https://www.rust-lang.org/",
    is_source_local: false,
    is_source_both: false,
    description: "A language empowering everyone to build <strong>reliable</strong> &amp; efficient software.",
    profile: { name: "Rust", url: "https://www.rust-lang.org/", long_name: "rust-lang.org" },
    language: "en",
    family_friendly: true,
    type: "search_result",
    subtype: "generic",
    meta_url: { scheme: "https", netloc: "rust-lang.org", hostname: "www.rust-lang.org", path: "" },
  },
  { title: "", url: "https://doc.rust-lang.org/book/", description: "The book.", type: "search_result" },
  { title: "FTP mirror", url: "ftp://ftp.rust-lang.org/", description: "Not a web page.", type: "search_result" },
  { title: "  Rust   by Example ", url: "https://doc.rust-lang.org/rust-by-example/", description: "", type: "search_result" },
  { title: "No URL at all", description: "Dropped.", type: "search_result" },
];

const FORMATS: Record<ProviderName, WireFormat> = {
  ddgs: {
    base: "/lite/",
    path: "/lite/",
    method: "GET",
    contentType: "text/html; charset=UTF-8",
    presentedKey: () => undefined,
    needsKey: false,
    success: DDG_SUCCESS,
    empty: DDG_EMPTY,
    error: (status) => `<html><body><h1>${status}</h1></body></html>`,
  },
  brave: {
    base: "/res/v1/web/search",
    path: "/res/v1/web/search",
    method: "GET",
    contentType: "application/json",
    presentedKey: (headers) => header(headers, "x-subscription-token"),
    needsKey: true,
    key: KEYS.brave,
    success: json({ type: "search", query: { original: "rust", more_results_available: true }, mixed: { type: "mixed", main: [] }, web: { type: "search", results: BRAVE_RESULTS, family_friendly: true } }),
    dated: () =>
      json({
        type: "search",
        web: {
          type: "search",
          results: [
            { title: "Rust", url: DATED.recent, description: "Recent.", page_age: zoneless(daysAgo(2)), age: "2 days ago", type: "search_result" },
            { title: "Rust - Wikipedia", url: DATED.older, description: "Older.", age: "20 days ago", type: "search_result" },
            { title: "The Rust Book", url: DATED.undated, description: "Undated.", type: "search_result" },
          ],
        },
      }),
    empty: json({ type: "search", query: { original: "zzqx", more_results_available: false }, mixed: { type: "mixed", main: [] } }),
    malformed: `{"type":"search","web":{"type":"search","results":[{"title":"cut`,
    wrongShape: json({ type: "search", web: { type: "search", results: "none" } }),
    error: (status, key) =>
      json({ type: "ErrorResponse", error: { id: "f3b0", status, code: status === 429 ? "RATE_LIMITED" : "SUBSCRIPTION_TOKEN_INVALID", detail: `Token ${key} was refused.` }, time: 1_700_000_000 }),
  },
  tavily: {
    base: "/search",
    path: "/search",
    method: "POST",
    contentType: "application/json",
    presentedKey: bearer,
    needsKey: true,
    key: KEYS.tavily,
    success: json({
      query: "rust",
      follow_up_questions: null,
      answer: null,
      images: [],
      results: [
        { title: "Rust Programming Language", url: "https://www.rust-lang.org/", content: "Rust is fast and memory-efficient.", score: 0.98, raw_content: null },
        { title: "Rust on Wikipedia", url: "https://en.wikipedia.org/wiki/Rust_(programming_language)", content: "  ", score: 0.91, raw_content: null },
        { title: "Mail us", url: "mailto:rust@example.org", content: "Not a web page.", score: 0.5, raw_content: null },
      ],
      response_time: 1.02,
    }),
    dated: () =>
      json({
        query: "rust",
        results: [
          { title: "Rust", url: DATED.recent, content: "Recent.", score: 0.9, published_date: daysAgo(2).toUTCString() },
          { title: "Rust - Wikipedia", url: DATED.older, content: "Older.", score: 0.8, published_date: daysAgo(20).toISOString() },
          { title: "The Rust Book", url: DATED.undated, content: "Undated.", score: 0.7 },
        ],
        response_time: 0.5,
      }),
    empty: json({ query: "zzqx", follow_up_questions: null, answer: null, images: [], results: [], response_time: 0.4 }),
    malformed: `{"query":"rust","results":[{"title":"Rust"`,
    wrongShape: json({ detail: { error: "Internal error" } }),
    error: (_status, key) => json({ detail: { error: `Unauthorized or throttled: ${key}` } }),
  },
  serper: {
    base: "/search",
    path: "/search",
    method: "POST",
    contentType: "application/json; charset=utf-8",
    presentedKey: (headers) => header(headers, "x-api-key"),
    needsKey: true,
    key: KEYS.serper,
    success: json({
      searchParameters: { q: "rust", type: "search", num: 10, engine: "google" },
      knowledgeGraph: { title: "Rust", type: "Programming language" },
      organic: [
        { title: "Rust Programming Language", link: "https://www.rust-lang.org/", snippet: "A language empowering everyone.", position: 1 },
        { title: "Rust - Wikipedia", link: "https://en.wikipedia.org/wiki/Rust_(programming_language)", snippet: "Rust is a general-purpose language.", position: 2, sitelinks: [] },
        { title: "The Rust Book", link: "https://doc.rust-lang.org/book/", position: 3 },
      ],
      peopleAlsoAsk: [],
      relatedSearches: [{ query: "rust game" }],
      credits: 1,
    }),
    dated: () =>
      json({
        searchParameters: { q: "rust", type: "search", engine: "google" },
        organic: [
          { title: "Rust", link: DATED.recent, snippet: "Recent.", date: "2 days ago", position: 1 },
          { title: "Rust - Wikipedia", link: DATED.older, snippet: "Older.", date: "20 days ago", position: 2 },
          { title: "The Rust Book", link: DATED.undated, snippet: "Undated.", position: 3 },
        ],
      }),
    empty: json({ searchParameters: { q: "zzqx", type: "search", num: 10, engine: "google" }, organic: [], credits: 1 }),
    malformed: `{"searchParameters":{"q":"rust"},"organic":[`,
    wrongShape: json({ searchParameters: { q: "rust" }, organic: "none" }),
    error: (status, key) => json({ message: `Unauthorized or limited (${key}).`, statusCode: status }),
  },
  openserp: {
    base: "/search",
    path: "/search",
    method: "GET",
    contentType: "application/json",
    presentedKey: bearer,
    // Self-hosted instances take requests without a key.
    needsKey: false,
    success: json({
      results: [
        { rank: 1, title: "Rust Programming Language", url: "https://www.rust-lang.org/", snippet: "A language empowering everyone." },
        { rank: 2, title: "Rust - Wikipedia", link: "https://en.wikipedia.org/wiki/Rust_(programming_language)", description: "Rust is a general-purpose language." },
      ],
    }),
    legacy: json({
      search_metadata: { engine: "google" },
      organic_results: [
        { position: 1, title: "Rust Programming Language", link: "https://www.rust-lang.org/", description: "A language empowering everyone." },
        { position: 2, title: "The Rust Book", link: "https://doc.rust-lang.org/book/", snippet: "Learn Rust." },
      ],
    }),
    dated: () =>
      json({
        results: [
          { rank: 1, title: "Rust", url: DATED.recent, snippet: "Recent.", date: "2 days ago" },
          { rank: 2, title: "Rust - Wikipedia", url: DATED.older, snippet: "Older.", date: daysAgo(20).toISOString() },
          { rank: 3, title: "The Rust Book", url: DATED.undated, snippet: "Undated." },
        ],
      }),
    empty: json({ results: [] }),
    malformed: `{"results":[{"title":`,
    wrongShape: json({ data: [] }),
    error: (_status, key) => json({ error: `request refused for key ${key}` }),
  },
  searxng: {
    base: "/searx",
    path: "/searx/search",
    method: "GET",
    contentType: "application/json",
    presentedKey: () => undefined,
    needsKey: false,
    success: json({
      query: "rust",
      number_of_results: 0,
      results: [
        { url: "https://www.rust-lang.org/", title: "Rust Programming Language", content: "A language empowering everyone.", engine: "google", engines: ["google", "brave"], positions: [1], score: 2.0, category: "general", template: "default.html" },
        { url: "https://en.wikipedia.org/wiki/Rust_(programming_language)", title: "Rust (programming language)", content: "Rust is a general-purpose language.", engine: "wikipedia", engines: ["wikipedia"], positions: [2], score: 1.0, category: "general" },
        { url: "https://doc.rust-lang.org/book/", title: "The Rust Book", content: "", engines: [], positions: [3], score: 0.5, category: "general" },
      ],
      answers: [],
      corrections: [],
      infoboxes: [],
      suggestions: ["rust game"],
      unresponsive_engines: [],
    }),
    dated: () =>
      json({
        query: "rust",
        results: [
          { url: DATED.recent, title: "Rust", content: "Recent.", engine: "google", publishedDate: zoneless(daysAgo(2)) },
          { url: DATED.older, title: "Rust - Wikipedia", content: "Older.", engine: "google", publishedDate: zoneless(daysAgo(20)) },
          { url: DATED.undated, title: "The Rust Book", content: "Undated.", engine: "google", publishedDate: null },
        ],
      }),
    empty: json({ query: "zzqx", number_of_results: 0, results: [], answers: [], corrections: [], infoboxes: [], suggestions: [], unresponsive_engines: [] }),
    malformed: `{"query":"rust","results":[{"url":`,
    wrongShape: json({ query: "rust", number_of_results: 0 }),
    error: (status) => `<!DOCTYPE html><html><head><title>${status}</title></head><body><h1>${status === 403 ? "Forbidden" : "Error"}</h1></body></html>`,
  },
};

/** Fakes live on their own loopback addresses so a request reaching the wrong one is visible. */
const HOSTS: Record<ProviderName, string> = {
  ddgs: "127.0.0.21",
  brave: "127.0.0.22",
  tavily: "127.0.0.23",
  serper: "127.0.0.24",
  openserp: "127.0.0.25",
  searxng: "127.0.0.26",
};

function answer(format: WireFormat, behavior: Behavior, req: http.IncomingMessage, res: http.ServerResponse): void {
  const contentType = { "content-type": format.contentType };
  const must = (body: string | undefined) => {
    if (body === undefined) throw new Error(`fake: this provider has no ${String(behavior)} answer`);
    return body;
  };
  const key = format.presentedKey(req.headers);
  if (typeof behavior === "number") {
    res.writeHead(behavior, { ...contentType, ...(behavior === 429 && { "retry-after": RETRY_AFTER }) }).end(format.error(behavior, key));
    return;
  }
  if (format.needsKey && key !== format.key && behavior !== "hang" && behavior !== "reset") {
    res.writeHead(401, contentType).end(format.error(401, key));
    return;
  }
  switch (behavior) {
    case "succeed":
      res.writeHead(200, contentType).end(format.success);
      return;
    case "legacy":
      res.writeHead(200, contentType).end(must(format.legacy));
      return;
    case "empty":
      res.writeHead(200, contentType).end(format.empty);
      return;
    case "hang":
      return;
    case "malformed":
      res.writeHead(200, contentType).end(must(format.malformed));
      return;
    case "wrong-shape":
      res.writeHead(200, contentType).end(must(format.wrongShape));
      return;
    case "oversized":
      res.writeHead(200, contentType).end(format.success + " ".repeat(OVERSIZED_PADDING));
      return;
    case "reset":
      req.socket.destroy();
      return;
    case "redirect-loop":
      res.writeHead(302, { location: req.url ?? "/" }).end();
      return;
    case "challenge":
      res.writeHead(202, contentType).end(DDG_CHALLENGE);
      return;
    case "dated":
      res.writeHead(200, contentType).end(must(format.dated?.()));
      return;
  }
}

/** One fake per provider on 127.0.0.21–26 (port 0), each speaking that provider's wire format. */
export async function startFakeProviders(): Promise<FakeProviders> {
  const log: FakeRequest[] = [];
  const origins: Origin[] = [];
  const fakes = {} as Record<ProviderName, FakeProvider>;
  for (const name of Object.keys(FORMATS) as ProviderName[]) {
    const format = FORMATS[name];
    let behavior: Behavior = "succeed";
    let delayMs = 0;
    let waiting: ((request: FakeRequest) => void)[] = [];
    const requests: FakeRequest[] = [];
    const origin = await startOrigin(HOSTS[name], async (req, res, body) => {
      const url = new URL(req.url ?? "/", "http://fake");
      const request: FakeRequest = { provider: name, method: req.method ?? "", path: url.pathname, query: Object.fromEntries(url.searchParams), headers: req.headers, body };
      requests.push(request);
      log.push(request);
      for (const resolve of waiting) resolve(request);
      waiting = [];
      if (delayMs > 0) await sleep(delayMs);
      if (url.pathname !== format.path) res.writeHead(404, { "content-type": "text/plain" }).end("Not Found");
      else if (req.method !== format.method) res.writeHead(405, { "content-type": "text/plain" }).end("Method Not Allowed");
      else answer(format, behavior, req, res);
    });
    origins.push(origin);
    fakes[name] = {
      name,
      baseUrl: `${origin.url}${format.base}`,
      requests,
      behave: (next) => {
        behavior = next;
      },
      delay: (ms) => {
        delayMs = ms;
      },
      nextRequest: () => new Promise((resolve) => waiting.push(resolve)),
    };
  }
  return {
    fakes,
    log,
    reset() {
      log.length = 0;
      for (const fake of Object.values(fakes)) {
        fake.requests.length = 0;
        fake.behave("succeed");
        fake.delay(0);
      }
    },
    close: async () => {
      await Promise.all(origins.map((origin) => origin.close()));
    },
  };
}

/**
 * A search request built the way the worker builds it (web config → searchRequestFrom) with every
 * provider enabled, keyed and pointed at its fake; `web` overrides settings, `filters` are the caller's.
 */
export function searchRequest(
  providers: FakeProviders,
  web: WebConfigInput = {},
  options: { query?: string; numResults?: number; keys?: SearchKeys; filters?: SearchFilters } = {},
): SidecarSearchRequest {
  const { fakes } = providers;
  const base: WebConfigInput = {
    provider: "auto",
    timeoutMs: 2_000,
    ddgs: { baseUrl: fakes.ddgs.baseUrl },
    brave: { enabled: true, baseUrl: fakes.brave.baseUrl },
    tavily: { enabled: true, baseUrl: fakes.tavily.baseUrl },
    serper: { enabled: true, baseUrl: fakes.serper.baseUrl },
    openserp: { enabled: true, baseUrl: fakes.openserp.baseUrl },
    searxng: { enabled: true, baseUrl: fakes.searxng.baseUrl, defaultEngine: "google" },
  };
  const config = resolveConfig(WebConfigSchema, base, web);
  if (!config.ok) throw new Error(`test config: ${config.error.message}`);
  return searchRequestFrom(config.value, options.query ?? "rust programming", options.numResults ?? 10, options.keys ?? KEYS, OPERATOR_URLS_ONLY, options.filters);
}

/**
 * Search dependencies on real sockets: a loopback DNS server that knows no names, the real
 * dispatcher pool behind the loopback guard, and a real limiter.
 */
export async function startSearchDeps(): Promise<{ deps: SearchDeps; close(): Promise<void> }> {
  const dns = await startDnsServer(() => "nxdomain");
  const egress = egressDeps(dns);
  const deps = { ...egress, limiter: createHostLimiter({ maxConcurrent: 16, maxPerHost: 4, maxQueue: 64 }) };
  return {
    deps,
    close: async () => {
      await egress.dispatchers.close();
      await dns.close();
    },
  };
}

/**
 * Records everything the code under test answers or logs; `leaks()` lists the keys found in any
 * of it (it should always be empty).
 */
export function watchForKeys() {
  const seen: unknown[] = [];
  const methods = ["log", "info", "warn", "error", "debug"] as const;
  const spies = methods.map((method) => vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void seen.push(args.map(String))));
  return {
    /** Remembers an answer and hands it back. */
    record<T>(answer: T): T {
      seen.push(answer);
      return answer;
    },
    leaks(): string[] {
      const text = JSON.stringify(seen);
      return Object.values(KEYS).filter((key) => text.includes(key));
    },
    count: () => seen.length,
    restore() {
      for (const spy of spies) spy.mockRestore();
    },
  };
}

/**
 * Starts the fakes and real search dependencies around a test file, resetting the fakes before
 * each test and watching for key leaks; read them from the returned object inside tests.
 */
export function useFakeSearch(): { providers: FakeProviders; deps: SearchDeps; watch: ReturnType<typeof watchForKeys> } {
  const state = { watch: watchForKeys() } as { providers: FakeProviders; deps: SearchDeps; watch: ReturnType<typeof watchForKeys> };
  let closeDeps = async () => {};
  beforeAll(async () => {
    state.providers = await startFakeProviders();
    const search = await startSearchDeps();
    state.deps = search.deps;
    closeDeps = search.close;
  });
  beforeEach(() => state.providers.reset());
  afterAll(async () => {
    state.watch.restore();
    await state.providers.close();
    await closeDeps();
  });
  return state;
}
