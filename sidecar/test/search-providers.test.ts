import { PROVIDER_NAMES, type ProviderName, type WebConfigInput } from "@edge-web/shared";
import { describe, expect, it } from "vitest";
import { freePort } from "../../test-support/free-port.ts";
import { searchWeb } from "../src/search/search-web.ts";
import { USER_AGENT } from "./support/egress.ts";
import { KEYS, RETRY_AFTER, searchRequest, useFakeSearch } from "./support/fake-providers.ts";

const stage = useFakeSearch();

/** One search with an explicit provider; every answer is kept for the key-leak check. */
async function search(provider: ProviderName, web: WebConfigInput = {}, options: { numResults?: number; query?: string } = {}, signal?: AbortSignal) {
  return stage.watch.record(await searchWeb(searchRequest(stage.providers, { provider, ...web }, options), stage.deps, signal));
}
const fake = (name: ProviderName) => stage.providers.fakes[name];
const only = <T>(items: T[]): T => {
  expect(items).toHaveLength(1);
  return items[0]!;
};
const JSON_PROVIDERS = PROVIDER_NAMES.filter((name) => name !== "ddgs");

describe("each provider's request and results", () => {
  it("ddgs: GETs DuckDuckGo Lite and reads its HTML, decoding redirect links and dropping ads and URL-less rows", async () => {
    const answer = await search("ddgs");
    const request = only(fake("ddgs").requests);
    expect(request).toMatchObject({ method: "GET", path: "/lite/", query: { q: "rust programming" } });
    expect(request.headers).toMatchObject({ "user-agent": USER_AGENT, accept: "text/html" });
    expect(answer).toEqual({
      ok: true,
      value: {
        provider: "ddgs",
        results: [
          { title: "Rust Programming Language", url: "https://www.rust-lang.org/", snippet: "A language empowering everyone to build reliable and efficient software.", source: "ddgs" },
          {
            title: "Rust (programming language) & its 'borrow checker' - Wikipedia",
            url: "https://en.wikipedia.org/wiki/Rust_(programming_language)?a=1&b=2",
            snippet: "Rust is a general-purpose programming language — emphasizing performance.",
            source: "ddgs",
          },
          { title: "https://doc.rust-lang.org/book/", url: "https://doc.rust-lang.org/book/", snippet: "The Rust Programming Language book.", source: "ddgs" },
          { title: "crates.io: Rust Package Registry", url: "https://crates.io/", source: "ddgs" },
        ],
      },
    });
    expect(JSON.stringify(answer)).not.toMatch(/Sponsored|rustjobs|Tracked|without a link|ad behind/);
  });

  it("brave: GETs with q, count and X-Subscription-Token, and strips highlighting from its text", async () => {
    const answer = await search("brave");
    const request = only(fake("brave").requests);
    expect(request).toMatchObject({ method: "GET", path: "/res/v1/web/search", query: { q: "rust programming", count: "10" } });
    expect(request.headers).toMatchObject({ "x-subscription-token": KEYS.brave, accept: "application/json", "user-agent": USER_AGENT });
    expect(answer).toEqual({
      ok: true,
      value: {
        provider: "brave",
        results: [
          { title: "The Rust Programming Language", url: "https://www.rust-lang.org/", snippet: "A language empowering everyone to build reliable & efficient software.", source: "brave" },
          { title: "https://doc.rust-lang.org/book/", url: "https://doc.rust-lang.org/book/", snippet: "The book.", source: "brave" },
          { title: "Rust by Example", url: "https://doc.rust-lang.org/rust-by-example/", source: "brave" },
        ],
      },
    });
  });

  it("brave and tavily are asked for at most 20 results, their per-request maximum", async () => {
    await search("brave", {}, { numResults: 50 });
    expect(only(fake("brave").requests).query.count).toBe("20");
    await search("tavily", {}, { numResults: 50 });
    expect(JSON.parse(only(fake("tavily").requests).body)).toEqual({ query: "rust programming", max_results: 20 });
  });

  it("tavily: POSTs {query, max_results} with a bearer key", async () => {
    const answer = await search("tavily", {}, { numResults: 4 });
    const request = only(fake("tavily").requests);
    expect(request).toMatchObject({ method: "POST", path: "/search" });
    expect(JSON.parse(request.body)).toEqual({ query: "rust programming", max_results: 4 });
    expect(request.headers).toMatchObject({ authorization: `Bearer ${KEYS.tavily}`, "content-type": "application/json", accept: "application/json", "user-agent": USER_AGENT });
    expect(answer).toEqual({
      ok: true,
      value: {
        provider: "tavily",
        results: [
          { title: "Rust Programming Language", url: "https://www.rust-lang.org/", snippet: "Rust is fast and memory-efficient.", source: "tavily" },
          { title: "Rust on Wikipedia", url: "https://en.wikipedia.org/wiki/Rust_(programming_language)", source: "tavily" },
        ],
      },
    });
  });

  it("serper: POSTs {q, num} with X-API-KEY and reads organic[]", async () => {
    const answer = await search("serper", {}, { numResults: 7 });
    const request = only(fake("serper").requests);
    expect(request).toMatchObject({ method: "POST", path: "/search" });
    expect(JSON.parse(request.body)).toEqual({ q: "rust programming", num: 7 });
    expect(request.headers).toMatchObject({ "x-api-key": KEYS.serper, "content-type": "application/json", "user-agent": USER_AGENT });
    expect(answer).toEqual({
      ok: true,
      value: {
        provider: "serper",
        results: [
          { title: "Rust Programming Language", url: "https://www.rust-lang.org/", snippet: "A language empowering everyone.", source: "serper" },
          { title: "Rust - Wikipedia", url: "https://en.wikipedia.org/wiki/Rust_(programming_language)", snippet: "Rust is a general-purpose language.", source: "serper" },
          { title: "The Rust Book", url: "https://doc.rust-lang.org/book/", source: "serper" },
        ],
      },
    });
  });

  it("openserp: GETs with q and num, sends the key both ways, and reads `results` with url/link and snippet/description", async () => {
    const answer = await search("openserp", {}, { numResults: 3 });
    const request = only(fake("openserp").requests);
    expect(request).toMatchObject({ method: "GET", path: "/search", query: { q: "rust programming", num: "3" } });
    expect(request.headers).toMatchObject({ authorization: `Bearer ${KEYS.openserp}`, "x-api-key": KEYS.openserp, accept: "application/json" });
    expect(answer).toEqual({
      ok: true,
      value: {
        provider: "openserp",
        results: [
          { title: "Rust Programming Language", url: "https://www.rust-lang.org/", snippet: "A language empowering everyone.", source: "openserp" },
          { title: "Rust - Wikipedia", url: "https://en.wikipedia.org/wiki/Rust_(programming_language)", snippet: "Rust is a general-purpose language.", source: "openserp" },
        ],
      },
    });
  });

  it("openserp: reads the older `organic_results` shape, and sends no key headers when it has none", async () => {
    fake("openserp").behave("legacy");
    const answer = await search("openserp", {}, { numResults: 5 });
    expect(answer.ok && answer.value.results).toEqual([
      { title: "Rust Programming Language", url: "https://www.rust-lang.org/", snippet: "A language empowering everyone.", source: "openserp" },
      { title: "The Rust Book", url: "https://doc.rust-lang.org/book/", snippet: "Learn Rust.", source: "openserp" },
    ]);
    stage.providers.reset();
    const keyless = stage.watch.record(await searchWeb(searchRequest(stage.providers, { provider: "openserp" }, { keys: {} }), stage.deps));
    expect(keyless.ok).toBe(true);
    const request = only(fake("openserp").requests);
    expect(request.headers.authorization).toBeUndefined();
    expect(request.headers["x-api-key"]).toBeUndefined();
  });

  it("searxng: GETs {baseUrl}/search with the JSON format and the default engine; source is the result's engine", async () => {
    const answer = await search("searxng");
    const request = only(fake("searxng").requests);
    expect(request).toMatchObject({
      method: "GET",
      path: "/searx/search",
      query: { q: "rust programming", format: "json", pageno: "1", language: "en", categories: "general", engines: "google" },
    });
    expect(request.headers).toMatchObject({ accept: "application/json", "user-agent": USER_AGENT });
    expect(answer).toEqual({
      ok: true,
      value: {
        provider: "searxng",
        results: [
          { title: "Rust Programming Language", url: "https://www.rust-lang.org/", snippet: "A language empowering everyone.", source: "google" },
          { title: "Rust (programming language)", url: "https://en.wikipedia.org/wiki/Rust_(programming_language)", snippet: "Rust is a general-purpose language.", source: "wikipedia" },
          { title: "The Rust Book", url: "https://doc.rust-lang.org/book/", source: "searxng" },
        ],
      },
    });
  });

  it("searxng: leaves out engines when no default engine is set, and copes with a trailing slash", async () => {
    const answer = await search("searxng", { searxng: { baseUrl: `${fake("searxng").baseUrl}/`, defaultEngine: "" } });
    expect(answer.ok).toBe(true);
    const request = only(fake("searxng").requests);
    expect(request.path).toBe("/searx/search");
    expect(request.query).not.toHaveProperty("engines");
  });

  it.each(PROVIDER_NAMES)("%s answers at most numResults results", async (name) => {
    const answer = await search(name, {}, { numResults: 1 });
    expect(answer.ok && answer.value.results).toHaveLength(1);
    expect(answer.ok && answer.value.results[0]?.url).toBe("https://www.rust-lang.org/");
  });

  it.each(PROVIDER_NAMES)("%s: no results is a success with an empty list", async (name) => {
    fake(name).behave("empty");
    expect(await search(name)).toEqual({ ok: true, value: { provider: name, results: [] } });
  });
});

describe("error mapping", () => {
  const STATUS_ROWS: [number, string][] = [
    [401, "PROVIDER_AUTH_FAILED"],
    [403, "PROVIDER_AUTH_FAILED"],
    [429, "PROVIDER_RATE_LIMITED"],
    [500, "PROVIDER_UNAVAILABLE"],
    [503, "PROVIDER_UNAVAILABLE"],
    [404, "WEB_SEARCH_FAILED"],
    [422, "WEB_SEARCH_FAILED"],
  ];
  const cases = PROVIDER_NAMES.flatMap((name) => STATUS_ROWS.map(([status, code]) => [name, status, code] as const));

  it.each(cases)("%s: HTTP %i is %s, naming the provider", async (name, status, code) => {
    fake(name).behave(status);
    const answer = await search(name);
    expect(answer.ok).toBe(false);
    if (answer.ok) return;
    expect(answer.error.code).toBe(code);
    expect(answer.error.message).toContain(`(${name})`);
    expect(answer.error.message).toContain(String(status));
    expect(answer.retryAfter).toBe(status === 429 ? RETRY_AFTER : undefined);
    // The provider's status rides along, so the worker can answer 502 naming it (429 keeps its own code and status).
    expect(answer.error.details).toEqual(status === 429 ? undefined : { fault: "upstream", upstreamStatus: status });
  });

  it("ddgs: DuckDuckGo's 202 challenge page is PROVIDER_RATE_LIMITED", async () => {
    fake("ddgs").behave("challenge");
    const answer = await search("ddgs");
    expect(!answer.ok && answer.error).toEqual({ code: "PROVIDER_RATE_LIMITED", message: expect.stringMatching(/DuckDuckGo.*retry later/) });
  });

  it("a key the provider refuses tells the caller where to set it", async () => {
    const refused = stage.watch.record(await searchWeb(searchRequest(stage.providers, { provider: "brave" }, { keys: { brave: "wrong-key" } }), stage.deps));
    expect(!refused.ok && refused.error.code).toBe("PROVIDER_AUTH_FAILED");
    expect(!refused.ok && refused.error.message).toMatch(/BRAVE_SEARCH_API_KEY or brave\.apiKey via \/api\/config\/auth/);
  });

  it("a SearXNG 403 says JSON output is off and how to turn it on", async () => {
    fake("searxng").behave(403);
    const answer = await search("searxng");
    expect(!answer.ok && answer.error.code).toBe("PROVIDER_AUTH_FAILED");
    expect(!answer.ok && answer.error.message).toMatch(/JSON output.*`json`.*`search\.formats`.*settings\.yml/);
  });

  it.each(PROVIDER_NAMES)("%s: no answer within web.timeoutMs is WEB_SEARCH_TIMEOUT", async (name) => {
    fake(name).behave("hang");
    const answer = await search(name, { timeoutMs: 300 });
    expect(!answer.ok && answer.error).toEqual({ code: "WEB_SEARCH_TIMEOUT", message: expect.stringMatching(/within 300 ms \(web\.timeoutMs\)/) });
  });

  it("a caller that aborts gets WEB_SEARCH_TIMEOUT", async () => {
    fake("tavily").behave("hang");
    const controller = new AbortController();
    const arrived = fake("tavily").nextRequest();
    const pending = search("tavily", {}, {}, controller.signal);
    await arrived;
    controller.abort();
    const answer = await pending;
    expect(!answer.ok && answer.error).toEqual({ code: "WEB_SEARCH_TIMEOUT", message: expect.stringMatching(/cancelled/) });
  });

  it.each(PROVIDER_NAMES)("%s: a reset connection is NETWORK_ERROR", async (name) => {
    fake(name).behave("reset");
    const answer = await search(name);
    expect(!answer.ok && answer.error.code).toBe("NETWORK_ERROR");
    expect(!answer.ok && answer.error.message).toContain(`(${name})`);
  });

  it("a refused connection, an unknown host and a redirect loop are NETWORK_ERROR", async () => {
    const refused = await search("tavily", { tavily: { baseUrl: `http://127.0.0.1:${await freePort()}/search` } });
    expect(!refused.ok && refused.error).toEqual({ code: "NETWORK_ERROR", message: expect.stringMatching(/refused/), details: { fault: "upstream" } });
    const unknown = await search("brave", { brave: { baseUrl: "http://search-api.provider.test/res/v1/web/search" } });
    expect(!unknown.ok && unknown.error).toEqual({ code: "NETWORK_ERROR", message: expect.stringMatching(/could not be resolved/), details: { fault: "upstream" } });
    fake("brave").behave("redirect-loop");
    const loop = await search("brave");
    expect(!loop.ok && loop.error).toEqual({ code: "NETWORK_ERROR", message: expect.stringMatching(/redirects/), details: { fault: "upstream" } });
  });

  it("a base URL that is not http(s) is INVALID_INPUT naming the setting", async () => {
    const answer = await search("searxng", { searxng: { baseUrl: "ftp://searx.example/" } });
    expect(!answer.ok && answer.error).toEqual({ code: "INVALID_INPUT", message: expect.stringMatching(/web\.searxng\.baseUrl/) });
    expect(stage.providers.log).toEqual([]);
  });

  it.each(JSON_PROVIDERS)("%s: a body that is not JSON is WEB_SEARCH_FAILED", async (name) => {
    fake(name).behave("malformed");
    const answer = await search(name);
    expect(!answer.ok && answer.error).toEqual({ code: "WEB_SEARCH_FAILED", message: expect.stringMatching(new RegExp(`\\(${name}\\).*not JSON`)) });
  });

  it.each(JSON_PROVIDERS)("%s: JSON of the wrong shape is WEB_SEARCH_FAILED", async (name) => {
    fake(name).behave("wrong-shape");
    const answer = await search(name);
    expect(!answer.ok && answer.error).toEqual({ code: "WEB_SEARCH_FAILED", message: expect.stringMatching(new RegExp(`\\(${name}\\).*unexpected shape`)) });
  });

  it.each(PROVIDER_NAMES)("%s: a response over the byte cap is WEB_SEARCH_FAILED", async (name) => {
    fake(name).behave("oversized");
    const answer = await search(name, { maxResponseBytes: 8_192 });
    expect(!answer.ok && answer.error).toEqual({ code: "WEB_SEARCH_FAILED", message: expect.stringMatching(/response over web\.maxResponseBytes \(8192 bytes\)/) });
  });
});

describe("keys", () => {
  it("never appear in any answer or log of this file", () => {
    expect(stage.watch.count()).toBeGreaterThan(100);
    expect(stage.watch.leaks()).toEqual([]);
  });
});
