import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, inject, it } from "vitest";
import type { Env } from "../src/env.ts";
import { waitFor } from "../../test-support/wait-for.ts";
import { call, newSession, tool } from "./helpers.ts";

const control = inject("controlUrl");
const urls = inject("providerUrls");
const keys = inject("providerKeys");
const localSearch = inject("localSearchUrl");

/** Fake steering: what a provider does next, and how many requests each has seen. */
const steer = async (path: string, params: Record<string, string> = {}) =>
  (await (await fetch(`${control}${path}?${new URLSearchParams(params)}`)).json()) as { counts: Record<string, number>; last?: { query: Record<string, string>; body: string } };
const behave = (provider: string, behavior: string | number) => steer("/behave", { provider, behavior: JSON.stringify(behavior) });
const counts = async () => (await steer("/counts")).counts;

/** Every provider pointed at its fake; `web` adds settings; `withKeys` puts the keys in the worker's secrets. */
const bindings = (web: object = {}, withKeys = true): Partial<Env> =>
  ({
    WEB_CONFIG: JSON.stringify({
      allowHosts: ["127.0.0.2"],
      timeoutMs: 1_500,
      ddgs: { baseUrl: urls.ddgs },
      brave: { enabled: true, baseUrl: urls.brave },
      tavily: { enabled: true, baseUrl: urls.tavily },
      serper: { enabled: true, baseUrl: urls.serper },
      openserp: { enabled: true, baseUrl: urls.openserp },
      searxng: { enabled: true, baseUrl: urls.searxng },
      ...web,
    }),
    ...(withKeys && {
      BRAVE_SEARCH_API_KEY: keys.brave,
      TAVILY_API_KEY: keys.tavily,
      SERPER_API_KEY: keys.serper,
      OPENSERP_API_KEY: keys.openserp,
    }),
  }) as Partial<Env>;

let query = 0;
/** A query no earlier test has cached. */
const fresh = (label = "q") => `${label} ${++query} ${crypto.randomUUID().slice(0, 8)}`;

beforeEach(async () => {
  await steer("/reset");
});

describe("web_search through the worker", () => {
  it("searches DuckDuckGo Lite by default, caches, and answers a hit without calling the provider", async () => {
    const b = bindings({ provider: "ddgs" });
    const id = await newSession(b);
    const q = fresh("rust programming");
    const first = await tool(id, "web_search", { query: q }, b);
    expect(first.status).toBe(200);
    expect(first.headers.get("x-cache")).toBe("MISS");
    expect(first.body.queries).toHaveLength(1);
    expect(first.body.queries[0].query).toBe(q);
    expect(first.body.queries[0].results[0]).toEqual({
      title: "Rust Programming Language",
      url: "https://www.rust-lang.org/",
      snippet: "A language empowering everyone to build reliable and efficient software.",
      source: "ddgs",
    });
    expect((await counts()).ddgs).toBe(1);

    const again = await tool(id, "web_search", { query: `  ${q.toUpperCase()}  ` }, b);
    expect(again.headers.get("x-cache")).toBe("HIT");
    expect(again.body.queries[0].results).toEqual(first.body.queries[0].results);
    expect((await counts()).ddgs).toBe(1);

    const stats = (await call("GET", `/api/sessions/${id}/stats`, undefined, b)).body.stats.web;
    expect(stats).toMatchObject({ searches: 2, cacheHits: 1, cacheMisses: 1, providers: { ddgs: { searches: 1 } } });
    expect(stats.providers.ddgs.p50Ms).toEqual(expect.any(Number));
  });

  it("stores the cache entry in KV with the configured TTL", async () => {
    const b = bindings({ provider: "ddgs", cache: { ttlMs: 120_000 } });
    const id = await newSession(b);
    const cache = (env as unknown as Env).CACHE;
    const known = new Set((await cache.list({ prefix: "search:v2:" })).keys.map((k) => k.name));
    const before = Date.now();
    await tool(id, "web_search", { query: fresh() }, b);
    const added = (await cache.list({ prefix: "search:v2:" })).keys.filter((k) => !known.has(k.name));
    expect(added).toHaveLength(1);
    expect((added[0]!.expiration ?? 0) * 1000).toBeGreaterThanOrEqual(before + 119_000);
    expect((added[0]!.expiration ?? 0) * 1000).toBeLessThanOrEqual(Date.now() + 121_000);
  });

  it("calls the provider every time when the cache is off", async () => {
    const b = bindings({ provider: "ddgs", cache: { enabled: false } });
    const id = await newSession(b);
    const q = fresh();
    const first = await tool(id, "web_search", { query: q }, b);
    await tool(id, "web_search", { query: q }, b);
    expect(first.headers.get("x-cache")).toBeNull();
    expect((await counts()).ddgs).toBe(2);
  });

  it("never caches a failure", async () => {
    const b = bindings({ provider: "brave" });
    const id = await newSession(b);
    const q = fresh();
    await behave("brave", 503);
    const down = await tool(id, "web_search", { query: q }, b);
    expect(down.status).toBe(502);
    expect(down.body.error).toMatchObject({ code: "PROVIDER_UNAVAILABLE", details: { fault: "upstream", upstreamStatus: 503 } });
    await behave("brave", "succeed");
    const up = await tool(id, "web_search", { query: q }, b);
    expect(up.status).toBe(200);
    expect(up.headers.get("x-cache")).toBe("MISS");
    expect(up.body.queries[0].results.length).toBeGreaterThan(0);
  });

  it.each([
    [401, 502, "PROVIDER_AUTH_FAILED", { fault: "upstream", upstreamStatus: 401 }],
    [403, 502, "PROVIDER_AUTH_FAILED", { fault: "upstream", upstreamStatus: 403 }],
    [404, 502, "WEB_SEARCH_FAILED", { fault: "upstream", upstreamStatus: 404 }],
    [429, 429, "PROVIDER_RATE_LIMITED", undefined],
    [500, 502, "PROVIDER_UNAVAILABLE", { fault: "upstream", upstreamStatus: 500 }],
    ["malformed", 502, "WEB_SEARCH_FAILED", undefined],
    ["oversized", 502, "WEB_SEARCH_FAILED", undefined],
    ["hang", 504, "WEB_SEARCH_TIMEOUT", undefined],
    ["reset", 502, "NETWORK_ERROR", { fault: "upstream" }],
  ] as const)("maps a provider answering %s to %i %s, without leaking its key", async (behavior, status, code, details) => {
    const b = bindings({ provider: "serper", maxResponseBytes: 32_768 });
    const id = await newSession(b);
    await behave("serper", behavior);
    const res = await tool(id, "web_search", { query: fresh() }, b);
    expect(res.status).toBe(status);
    expect(res.body.error.code).toBe(code);
    expect(res.body.error.details).toEqual(details);
    expect(JSON.stringify(res.body)).not.toContain(keys.serper);
    if (behavior === 429) expect(res.headers.get("retry-after")).toBe("17");
  });

  it("walks the tiers in auto mode and names which provider answered", async () => {
    const b = bindings({ provider: "auto", providerPriority: ["brave", "serper", "tavily", "searxng", "openserp", "ddgs"] });
    const id = await newSession(b);
    await behave("brave", 500);
    await behave("serper", 429);
    const res = await tool(id, "web_search", { query: fresh() }, b);
    expect(res.status).toBe(200);
    expect(res.body.queries[0].results[0].source).toBe("tavily");
    expect(await counts()).toMatchObject({ brave: 1, serper: 1, tavily: 1, searxng: 0, openserp: 0, ddgs: 0 });
  });

  it("returns the last error when every provider fails in auto mode", async () => {
    const b = bindings({ provider: "auto" });
    const id = await newSession(b);
    for (const name of ["tavily", "serper", "brave", "openserp", "searxng"]) await behave(name, 500);
    await behave("ddgs", 429);
    const res = await tool(id, "web_search", { query: fresh() }, b);
    expect(res.status).toBe(429);
    expect(res.body.error.code).toBe("PROVIDER_RATE_LIMITED");
  });

  it("never falls back from an explicit provider", async () => {
    const b = bindings({ provider: "tavily" });
    const id = await newSession(b);
    await behave("tavily", 500);
    const res = await tool(id, "web_search", { query: fresh() }, b);
    expect(res.body.error.code).toBe("PROVIDER_UNAVAILABLE");
    expect(await counts()).toMatchObject({ tavily: 1, serper: 0, brave: 0, ddgs: 0 });
  });

  it("needs an enabled provider with its key", async () => {
    const noKey = bindings({ provider: "brave" }, false);
    const missing = await tool(await newSession(noKey), "web_search", { query: fresh() }, noKey);
    // A key the service lacks is its own configuration, not the provider's failure.
    expect(missing.status).toBe(503);
    expect(missing.body.error).toMatchObject({ code: "PROVIDER_AUTH_FAILED", details: { fault: "unavailable" } });
    expect(missing.body.error.message).toContain("BRAVE_SEARCH_API_KEY");
    const off = bindings({ provider: "brave", brave: { enabled: false, baseUrl: urls.brave } });
    const disabled = await tool(await newSession(off), "web_search", { query: fresh() }, off);
    expect(disabled.status).toBe(400);
    expect(disabled.body.error.code).toBe("INVALID_INPUT");
  });

  it("merges query and queries, trims, drops blanks and duplicates, keeps at most 5", async () => {
    const b = bindings({ provider: "ddgs", cache: { enabled: false } });
    const id = await newSession(b);
    const q = fresh("merge");
    const res = await tool(id, "web_search", { query: ` ${q} `, queries: [q, "", "  ", "b", "c", "d", "e", "f"] }, b);
    expect(res.body.queries.map((x: { query: string }) => x.query)).toEqual([q, "b", "c", "d", "e"]);
    expect((await counts()).ddgs).toBe(5);
    for (const params of [{}, { query: "   " }, { queries: ["", " "] }]) {
      const bad = await tool(id, "web_search", params, b);
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe("WEB_SEARCH_INVALID_QUERY");
    }
    const wrongType = await tool(id, "web_search", { query: 3, numResults: "5" }, b);
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error).toMatchObject({ code: "INVALID_INPUT", fields: ["query", "numResults"] });
  });

  it("refuses domain filters that are not domain names, or more than 20, naming the field", async () => {
    const b = bindings({ provider: "ddgs" });
    const id = await newSession(b);
    const cases: [object, string[]][] = [
      [{ includeDomains: ["https://docs.python.org"] }, ["includeDomains.0"]],
      [{ excludeDomains: ["example.com", "example.com/path"] }, ["excludeDomains.1"]],
      [{ includeDomains: ["*.example.com"], excludeDomains: "pinterest.com" }, ["includeDomains.0", "excludeDomains"]],
      [{ excludeDomains: Array.from({ length: 21 }, (_, i) => `site${i}.example`) }, ["excludeDomains"]],
      [{ recency: "fortnight" }, ["recency"]],
    ];
    for (const [filters, fields] of cases) {
      const bad = await tool(id, "web_search", { query: fresh(), ...filters }, b);
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatchObject({ code: "INVALID_INPUT", fields });
    }
    expect((await counts()).ddgs).toBe(0);
  });

  it("holds results to the domain filters, says how they were applied, and keys the cache on them", async () => {
    const b = bindings({ provider: "ddgs" });
    const id = await newSession(b);
    const q = fresh("rust programming");
    const plain = await tool(id, "web_search", { query: q }, b);
    expect(plain.body.queries[0]).not.toHaveProperty("applied");
    const filtered = await tool(id, "web_search", { query: q, includeDomains: ["rust-lang.org"] }, b);
    expect(filtered.headers.get("x-cache")).toBe("MISS");
    expect(filtered.body.queries[0].results.map((r: { url: string }) => r.url)).toEqual(["https://www.rust-lang.org/", "https://doc.rust-lang.org/book/"]);
    expect(filtered.body.queries[0].applied).toEqual({ ddgs: { domains: "filtered" } });
    expect((await steer("/counts", { provider: "ddgs" })).last?.query.q).toBe(`${q} site:rust-lang.org`);
    // The same filters in another order and case are the same search; the answer, applied included, comes from the cache.
    const again = await tool(id, "web_search", { query: q, includeDomains: ["RUST-LANG.org"] }, b);
    expect(again.headers.get("x-cache")).toBe("HIT");
    expect(again.body.queries[0]).toEqual(filtered.body.queries[0]);
    const excluded = await tool(id, "web_search", { query: q, excludeDomains: ["rust-lang.org"] }, b);
    expect(excluded.headers.get("x-cache")).toBe("MISS");
    expect(excluded.body.queries[0].results.map((r: { url: string }) => r.url)).toEqual(["https://en.wikipedia.org/wiki/Rust_(programming_language)?a=1&b=2", "https://crates.io/"]);
    const recent = await tool(id, "web_search", { query: q, recency: "week", excludeDomains: ["rust-lang.org"] }, b);
    expect(recent.headers.get("x-cache")).toBe("MISS");
    expect(recent.body.queries[0].applied).toEqual({ ddgs: { recency: "provider", domains: "filtered" } });
    expect((await steer("/counts", { provider: "ddgs" })).last?.query.df).toBe("w");
    expect((await counts()).ddgs).toBe(4);
  });

  it('asks several providers with provider "all", fuses their results with sources, reports a failing one, and caches only whole answers', async () => {
    const b = bindings({ provider: "ddgs" });
    const id = await newSession(b);
    const q = fresh("rust programming");
    await behave("brave", 500);
    const partial = await tool(id, "web_search", { query: q, provider: "all" }, b);
    expect(partial.status).toBe(200);
    expect(await counts()).toEqual({ ddgs: 1, brave: 1, tavily: 1, serper: 1, openserp: 1, searxng: 1 });
    const [query] = partial.body.queries;
    expect(query.providerErrors).toEqual({ brave: { code: "PROVIDER_UNAVAILABLE", message: expect.stringContaining("HTTP 500") } });
    // Every fake answers www.rust-lang.org first: one result, found by the five that answered.
    expect(query.results[0]).toMatchObject({ url: "https://www.rust-lang.org/", sources: expect.arrayContaining([{ provider: "ddgs", rank: 1 }, { provider: "tavily", rank: 1 }]) });
    expect(query.results[0].sources).toHaveLength(5);
    expect(JSON.stringify(partial.body)).not.toContain(keys.brave);
    // An answer a provider was missing from is not kept: the next call asks again, and keeps the whole one.
    await behave("brave", "succeed");
    expect((await tool(id, "web_search", { query: q, provider: "all" }, b)).headers.get("x-cache")).toBe("MISS");
    expect((await tool(id, "web_search", { query: q, provider: "all" }, b)).headers.get("x-cache")).toBe("HIT");
    expect((await counts()).brave).toBe(2);
    const stats = (await call("GET", `/api/sessions/${id}/stats`, undefined, b)).body.stats.web;
    expect(stats.providers).toMatchObject({ ddgs: { searches: 2 }, brave: { searches: 1 }, searxng: { searches: 2 } });
  });

  it("keys the cache on the provider set, in any order, apart from web.provider's own answer", async () => {
    const b = bindings({ provider: "ddgs" });
    const id = await newSession(b);
    const q = fresh();
    const listed = await tool(id, "web_search", { query: q, provider: ["serper", "brave"] }, b);
    expect(listed.headers.get("x-cache")).toBe("MISS");
    expect(listed.body.queries[0].results[0].sources).toEqual([{ provider: "brave", rank: 1 }, { provider: "serper", rank: 1 }]);
    expect((await tool(id, "web_search", { query: q, provider: ["brave", "serper", "brave"] }, b)).headers.get("x-cache")).toBe("HIT");
    for (const provider of [undefined, "brave", ["brave"]]) {
      expect((await tool(id, "web_search", { query: q, ...(provider && { provider }) }, b)).headers.get("x-cache")).toBe("MISS");
    }
    expect(await counts()).toMatchObject({ ddgs: 1, brave: 3, serper: 1 });
  });

  it("refuses a provider choice it cannot serve: 400 INVALID_INPUT naming the field, and for a provider it lacks, naming it without a word on keys", async () => {
    const b = bindings({ provider: "ddgs" }, false);
    const id = await newSession(b);
    // A malformed choice names the field; a provider this deployment lacks is named in the message (the shape was right).
    const cases = [[[], "at least one", ["provider"]], ["google", '"google"', ["provider"]], [["ddgs", "bing"], '"bing"', ["provider"]], ["brave", '"brave"', undefined], [["ddgs", "tavily"], '"tavily"', undefined]] as const;
    for (const [provider, named, fields] of cases) {
      const bad = await tool(id, "web_search", { query: fresh(), provider }, b);
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatchObject({ code: "INVALID_INPUT", message: expect.stringContaining(named) });
      expect(bad.body.error.fields).toEqual(fields);
      expect(bad.body.error.message).not.toMatch(/API_KEY|apiKey/);
    }
    expect(await counts()).toMatchObject({ ddgs: 0, brave: 0, tavily: 0 });
  });

  it("fails a separate call at once when the session's queue is full; a call's own queries all run", async () => {
    const b = bindings({ provider: "ddgs", cache: { enabled: false }, concurrency: { maxConcurrent: 1, maxQueueSize: 1 } });
    const id = await newSession(b);
    const own = await tool(id, "web_search", { queries: [fresh(), fresh(), fresh(), fresh()] }, b);
    expect(own.status).toBe(200);
    expect(own.body.queries).toHaveLength(4);
    await behave("ddgs", "hang");
    const running = tool(id, "web_search", { query: fresh() }, b);
    const waiting = tool(id, "web_search", { query: fresh() }, b);
    // One call holds the slot (its request hangs at the provider), one waits in the queue.
    await waitFor(async () => (await call("GET", `/api/sessions/${id}/state`, undefined, b)).body.state.pendingMessageCount === 2, "both calls in the session object");
    const res = await tool(id, "web_search", { query: fresh() }, b);
    expect(res.status).toBe(429);
    expect(res.body.error).toMatchObject({ code: "WEB_SEARCH_FAILED", details: { fault: "too-many-requests" } });
    expect(res.body.error.message).toMatch(/1 requests running and 1 calls waiting \(web\.concurrency\)/);
    expect((await running).body.error.code).toBe("WEB_SEARCH_TIMEOUT");
    expect((await waiting).body.error.code).toBe("WEB_SEARCH_TIMEOUT");
    // The four queries and the hanging call; the waiting one may get its slot just before its deadline.
    expect((await counts()).ddgs).toBeGreaterThanOrEqual(5);
    expect((await counts()).ddgs).toBeLessThanOrEqual(6);
  });

  it("floors and clamps numResults to 1..maxResults", async () => {
    const b = bindings({ provider: "brave", maxResults: 4, cache: { enabled: false } });
    const id = await newSession(b);
    const sent = async (numResults?: number) => {
      await tool(id, "web_search", { query: fresh(), ...(numResults !== undefined && { numResults }) }, b);
      return (await steer("/counts", { provider: "brave" })).last?.query.count;
    };
    expect(await sent()).toBe("4");
    expect(await sent(0)).toBe("1");
    expect(await sent(-3)).toBe("1");
    expect(await sent(2.9)).toBe("2");
    expect(await sent(99)).toBe("4");
  });

  it("attaches page content through the fetch pipeline, keeping results whose page fails", async () => {
    const b = bindings({ provider: "ddgs", ddgs: { baseUrl: localSearch } });
    const id = await newSession(b);
    const res = await tool(id, "web_search", { query: fresh(), includeContent: true }, b);
    expect(res.status).toBe(200);
    const [ok, gone] = res.body.queries[0].results;
    expect(ok.content).toMatchObject({ title: "Local Article", contentType: "text/html" });
    expect(ok.content.content).toContain("turned it into Markdown");
    expect(gone.title).toBe("Gone");
    expect(gone.content).toBeUndefined();
  });

  it("stores results for get_search_content by query and queryIndex", async () => {
    const b = bindings({ provider: "ddgs" });
    const id = await newSession(b);
    const [a, c] = [fresh("alpha"), fresh("gamma")];
    const res = await tool(id, "web_search", { queries: [a, c] }, b);
    const responseId = res.body.responseId;
    expect((await tool(id, "get_search_content", { responseId, queryIndex: 1 }, b)).body.result.query).toBe(c);
    expect((await tool(id, "get_search_content", { responseId, query: a }, b)).body.result.results).toEqual(res.body.queries[0].results);
    const whole = await tool(id, "get_search_content", { responseId }, b);
    expect(whole.body.result).toEqual({ kind: "search", responseId, queries: res.body.queries });
    for (const selector of [{ queryIndex: 2 }, { query: "nope" }, { urlIndex: 0 }]) {
      expect((await tool(id, "get_search_content", { responseId, ...selector }, b)).body.error.code).toBe("NOT_FOUND");
    }
  });
});
