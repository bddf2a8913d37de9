import type { ProviderName, SearchFilters, SearchKeys, SearchResult, WebConfigInput } from "@edge-web/shared";
import { describe, expect, it } from "vitest";
import { fuseResults, RRF_K } from "../src/search/fuse-results.ts";
import { normalizedUrl } from "../src/search/normalized-url.ts";
import { searchWeb } from "../src/search/search-web.ts";
import { KEYS, RETRY_AFTER, searchRequest, useFakeSearch, type Behavior } from "./support/fake-providers.ts";

const stage = useFakeSearch();

/** One search with the caller's choices; every answer is kept for the key-leak check. */
async function search(filters: SearchFilters, web: WebConfigInput = {}, keys: SearchKeys = KEYS) {
  return stage.watch.record(await searchWeb(searchRequest(stage.providers, web, { filters, keys }), stage.deps));
}
const asked = () => stage.providers.log.map((request) => request.provider).sort();
const fake = (name: ProviderName) => stage.providers.fakes[name];
const onlyRequest = (name: ProviderName) => {
  expect(fake(name).requests).toHaveLength(1);
  return fake(name).requests[0]!;
};

const RUST = "https://www.rust-lang.org/";
const BOOK = "https://doc.rust-lang.org/book/";
const WIKI = "https://en.wikipedia.org/wiki/Rust_(programming_language)";
const BY_EXAMPLE = "https://doc.rust-lang.org/rust-by-example/";

describe("several providers at once", () => {
  // Brave answers the site, the book, Rust by Example; Serper and SearXNG the site, Wikipedia, the book.
  it("asks each named provider once, merges by URL and orders by reciprocal rank fusion, each result listing its sources", async () => {
    const answer = await search({ provider: ["searxng", "brave", "serper", "brave"] });
    expect(asked()).toEqual(["brave", "searxng", "serper"]);
    expect(answer.ok).toBe(true);
    if (!answer.ok) return;
    // The book: 1/62 + 2/63 ≈ 0.0479 beats Wikipedia's 2/62 ≈ 0.0323, though Wikipedia ranks higher twice.
    expect(answer.value.results.map((result) => [result.url, result.sources])).toEqual([
      [RUST, [{ provider: "brave", rank: 1 }, { provider: "serper", rank: 1 }, { provider: "searxng", rank: 1 }]],
      [BOOK, [{ provider: "brave", rank: 2 }, { provider: "serper", rank: 3 }, { provider: "searxng", rank: 3 }]],
      [WIKI, [{ provider: "serper", rank: 2 }, { provider: "searxng", rank: 2 }]],
      [BY_EXAMPLE, [{ provider: "brave", rank: 3 }]],
    ]);
    // Equal ranks: the first provider in the list's order gives the result its title and source.
    expect(answer.value.results[0]).toMatchObject({ title: "The Rust Programming Language", source: "brave" });
    expect(answer.value.results[2]).toMatchObject({ title: "Rust - Wikipedia", source: "serper" });
    expect(answer.value).not.toHaveProperty("providerErrors");
    expect(Object.keys(answer.value.latencyMs ?? {}).sort()).toEqual(["brave", "searxng", "serper"]);
  });

  it("cuts the fused list to numResults", async () => {
    const request = searchRequest(stage.providers, {}, { numResults: 2, filters: { provider: ["brave", "serper"] } });
    const answer = stage.watch.record(await searchWeb(request, stage.deps));
    expect(answer.ok && answer.value.results.map((result) => result.url)).toEqual([RUST, BOOK]);
  });

  it.each([
    [401, "PROVIDER_AUTH_FAILED", /refused the request \(HTTP 401\)/],
    [429, "PROVIDER_RATE_LIMITED", new RegExp(`retry after ${RETRY_AFTER}`)],
    [500, "PROVIDER_UNAVAILABLE", /HTTP 500/],
    ["hang", "WEB_SEARCH_TIMEOUT", /did not answer within 300 ms/],
  ] as const)("a provider answering %s is reported in providerErrors while the others' results are answered", async (behavior: Behavior, code, message) => {
    fake("serper").behave(behavior);
    const answer = await search({ provider: ["brave", "serper", "searxng"] }, { timeoutMs: 300 });
    expect(asked()).toEqual(["brave", "searxng", "serper"]);
    expect(answer.ok).toBe(true);
    if (!answer.ok) return;
    expect(answer.value.providerErrors).toEqual({ serper: { code, message: expect.stringMatching(message) } });
    expect(answer.value.results.map((result) => result.url)).toEqual([RUST, BOOK, WIKI, BY_EXAMPLE]);
    expect(answer.value.results.flatMap((result) => result.sources?.map((source) => source.provider))).not.toContain("serper");
  });

  it("fails only when every provider fails, with the first provider's failure", async () => {
    fake("brave").behave(500);
    fake("serper").behave(429);
    fake("searxng").behave(401);
    const answer = await search({ provider: ["searxng", "serper", "brave"] });
    expect(asked()).toEqual(["brave", "searxng", "serper"]);
    expect(!answer.ok && answer.error).toMatchObject({ code: "PROVIDER_UNAVAILABLE", message: expect.stringContaining("Brave Search (brave)") });
  });

  it('"all" asks every provider this service can use, and only those', async () => {
    const answer = await search({ provider: "all" }, { openserp: { enabled: false }, searxng: { baseUrl: "" } }, { brave: KEYS.brave, serper: KEYS.serper });
    expect(asked()).toEqual(["brave", "ddgs", "serper"]);
    expect(answer.ok && new Set(answer.value.results.flatMap((result) => result.sources?.map((source) => source.provider)))).toEqual(new Set(["ddgs", "brave", "serper"]));
  });

  it('"all" with filters: each provider is asked in its own terms, the fused results all hold to them, applied per provider', async () => {
    const answer = await search({ provider: "all", recency: "week", includeDomains: ["rust-lang.org"] });
    expect(asked()).toEqual(["brave", "ddgs", "openserp", "searxng", "serper", "tavily"]);
    const withSite = "rust programming site:rust-lang.org";
    expect(onlyRequest("ddgs").query).toMatchObject({ q: withSite, df: "w" });
    expect(onlyRequest("brave").query).toMatchObject({ q: withSite, freshness: "pw" });
    expect(JSON.parse(onlyRequest("tavily").body)).toMatchObject({ query: "rust programming", time_range: "week", include_domains: ["rust-lang.org"] });
    expect(JSON.parse(onlyRequest("serper").body)).toMatchObject({ q: withSite, tbs: "qdr:w" });
    expect(onlyRequest("openserp").query).toMatchObject({ q: withSite, date: expect.stringMatching(/^\d{8}\.\.\d{8}$/) });
    expect(onlyRequest("searxng").query).toMatchObject({ q: withSite, time_range: "month" });
    expect(answer.ok).toBe(true);
    if (!answer.ok) return;
    for (const result of answer.value.results) expect(new URL(result.url).hostname).toMatch(/(^|\.)rust-lang\.org$/);
    // The fakes ignore the filters: each answer outside rust-lang.org was dropped (brave's had none); SearXNG asked for the month, and no result had a date to hold to the week.
    expect(answer.value.applied).toEqual({
      ddgs: { recency: "provider", domains: "filtered" },
      brave: { recency: "provider", domains: "query" },
      tavily: { recency: "provider", domains: "filtered" },
      serper: { recency: "provider", domains: "filtered" },
      openserp: { recency: "provider", domains: "filtered" },
      searxng: { recency: "unsupported", domains: "filtered" },
    });
  });
});

describe("the caller's provider", () => {
  it.each([
    ["one name", "brave" as const],
    ["a list", ["ddgs", "brave"] as ProviderName[]],
  ])("%s this service cannot use is INVALID_INPUT naming it, without a word on keys, and nothing is asked", async (_, provider) => {
    const answer = await search({ provider }, {}, { tavily: KEYS.tavily });
    // No fields: the request's shape was right, this service lacks the provider.
    expect(!answer.ok && answer.error).toEqual({ code: "INVALID_INPUT", message: expect.stringContaining('"brave"') });
    expect(!answer.ok && answer.error.message).not.toMatch(/key|BRAVE_SEARCH|enabled/i);
    expect(asked()).toEqual([]);
  });

  it("a disabled one answers the same", async () => {
    const answer = await search({ provider: "searxng" }, { searxng: { enabled: false } });
    expect(!answer.ok && answer.error).toEqual({ code: "INVALID_INPUT", message: expect.stringContaining('"searxng"') });
  });

  it("one name is the only provider asked, even when it fails, and answers without sources", async () => {
    fake("serper").behave(500);
    const failed = await search({ provider: "serper" }, { provider: "auto" });
    expect(asked()).toEqual(["serper"]);
    expect(!failed.ok && failed.error.code).toBe("PROVIDER_UNAVAILABLE");
    fake("serper").behave("succeed");
    const answer = await search({ provider: "serper" }, { provider: "auto" });
    expect(answer.ok && answer.value.provider).toBe("serper");
    expect(answer.ok && answer.value.results.some((result) => "sources" in result)).toBe(false);
  });
});

describe("fusion", () => {
  const result = (url: string, extra: Partial<SearchResult> = {}): SearchResult => ({ title: url, url, ...extra });

  it("takes URLs that differ in scheme, www., trailing slash or fragment as one page; query strings count", () => {
    expect(normalizedUrl("https://www.Example.com/a/#top")).toBe(normalizedUrl("http://example.com/a"));
    expect(normalizedUrl("https://example.com/a?x=1")).not.toBe(normalizedUrl("https://example.com/a?x=2"));
    expect(normalizedUrl("https://example.com:8443/a")).not.toBe(normalizedUrl("https://example.com/a"));
  });

  it("reads a provider's result path of many slashes once: only the final run is cut", () => {
    const slashes = "/".repeat(300_000);
    expect(normalizedUrl(`https://example.com${slashes}a${slashes}`)).toBe(`example.com${slashes}a`);
  });

  it("scores Σ 1/(k + rank) with k = 60, counts a provider's repeat once, and fills a missing snippet and date from another provider", () => {
    expect(RRF_K).toBe(60);
    const fused = fuseResults(
      [
        { provider: "brave", results: [result("https://a.example/"), result("https://b.example/"), result("https://a.example/#again")] },
        { provider: "serper", results: [result("https://b.example", { snippet: "B.", publishedDate: "2024-03-05T00:00:00.000Z" }), result("http://www.a.example/")] },
      ],
      10,
    );
    // a: 1/61 + 1/62, b: 1/62 + 1/61: equal, so the better best rank, then the earlier list, decides.
    expect(fused.map((r) => [r.url, r.sources])).toEqual([
      ["https://a.example/", [{ provider: "brave", rank: 1 }, { provider: "serper", rank: 2 }]],
      ["https://b.example", [{ provider: "brave", rank: 2 }, { provider: "serper", rank: 1 }]],
    ]);
    expect(fused[1]).toMatchObject({ snippet: "B.", publishedDate: "2024-03-05T00:00:00.000Z" });
  });

  it("keys never appear in any answer or log of this file", () => {
    expect(stage.watch.leaks()).toEqual([]);
  });
});
