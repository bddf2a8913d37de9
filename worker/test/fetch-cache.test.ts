import { env } from "cloudflare:workers";
import { WebConfigSchema } from "@edge-web/shared";
import * as v from "valibot";
import { describe, expect, inject, it } from "vitest";
import { createFetchCache } from "../src/cache/fetch-cache.ts";
import { fetchCacheKey } from "../src/cache/fetch-cache-key.ts";
import type { Env } from "../src/env.ts";
import { call, newSession, tool, withConfig } from "./helpers.ts";

/** What the origin's /cache/log says of a page (test-support/cache-origin.ts, which this runtime cannot import). */
interface PageLog {
  full: number;
  notModified: number;
  conditional: Array<{ ifNoneMatch?: string; ifModifiedSince?: string }>;
}

const origin = inject("originUrl");
const cacheSearch = inject("cacheSearchUrl");
const kv = (env as unknown as Env).CACHE;
const HOUR = 3_600_000;

/** A page path of the cache origin no other test asks for. */
const own = (path: string, query = "") => `${origin}/cache/${path}?k=${crypto.randomUUID()}${query}`;
const logOf = async (url: string) => (await (await fetch(`${origin}/cache/log?page=${encodeURIComponent(url.slice(origin.length))}`)).json()) as PageLog;
const fetchStats = async (id: string, bindings = {}) => (await call("GET", `/api/sessions/${id}/stats`, undefined, bindings)).body.stats.web.fetchCache;
const page = (res: { body: { results: Array<Record<string, unknown>> } }) => res.body.results[0]!;

/** The test's settings as the worker resolves them (withConfig's defaults), for keys and entries made here. */
const settingsOf = (config: object = {}) => v.parse(WebConfigSchema, { allowHosts: ["127.0.0.2"], timeoutMs: 2_000, ...config });

/** Puts a copy of `url` in the cache as if it had been fetched `ageMs` ago, with `validators`. */
async function seed(url: string, content: string, ageMs: number, validators?: { etag?: string; lastModified?: string }) {
  const settings = settingsOf();
  const key = await fetchCacheKey(url, { preferReader: false }, settings);
  const fetchedAt = Date.now() - ageMs;
  await createFetchCache(kv, settings.fetchCache).put(key!, { page: { url, content, truncated: false, contentType: "text/plain" }, fetchedAt, ...(validators && { validators }) });
  return fetchedAt;
}

describe("the fetch cache", () => {
  it("answers a second read of a page from the cache, saying when the origin was read", async () => {
    const id = await newSession();
    const url = own("changing");
    const first = await tool(id, "fetch_content", { url });
    expect(first.status).toBe(200);
    expect(page(first)).toMatchObject({ content: "Read 1 of this page.", fromCache: false });
    const fetchedAt = page(first).fetchedAt as string;
    expect(new Date(fetchedAt).toISOString()).toBe(fetchedAt);

    const second = await tool(id, "fetch_content", { url });
    expect(page(second)).toEqual({ ...page(first), fromCache: true });
    expect((await logOf(url)).full).toBe(1);
    expect(await fetchStats(id)).toEqual({ hits: 1, misses: 1, revalidated: 0 });
    // The stored result says so too.
    const stored = await tool(id, "get_search_content", { responseId: second.body.responseId, urlIndex: 0 });
    expect(stored.body.result).toMatchObject({ fromCache: true, fetchedAt });
  });

  it("is shared by every session of the deployment", async () => {
    const url = own("changing");
    await tool(await newSession(), "fetch_content", { url });
    const other = await newSession();
    const res = await tool(other, "fetch_content", { url });
    expect(page(res)).toMatchObject({ content: "Read 1 of this page.", fromCache: true });
    expect(await fetchStats(other)).toEqual({ hits: 1, misses: 0, revalidated: 0 });
  });

  it("maxAge 0 reads the origin again and refreshes the cache", async () => {
    const id = await newSession();
    const url = own("changing");
    await tool(id, "fetch_content", { url });
    const fresh = await tool(id, "fetch_content", { url, maxAge: 0 });
    expect(page(fresh)).toMatchObject({ content: "Read 2 of this page.", fromCache: false });
    const after = await tool(id, "fetch_content", { url });
    expect(page(after)).toMatchObject({ content: "Read 2 of this page.", fromCache: true, fetchedAt: page(fresh).fetchedAt });
    expect(await fetchStats(id)).toEqual({ hits: 1, misses: 2, revalidated: 0 });
  });

  it("answers a copy up to maxAge old, and reads the origin for an older one (default web.fetchCache.maxAgeMs: 1 h)", async () => {
    const id = await newSession();
    const url = own("changing");
    const fetchedAt = await seed(url, "A copy from two hours ago.", 2 * HOUR);
    const old = await tool(id, "fetch_content", { url, maxAge: 3 * HOUR });
    expect(page(old)).toMatchObject({ content: "A copy from two hours ago.", fromCache: true, fetchedAt: new Date(fetchedAt).toISOString() });
    const current = await tool(id, "fetch_content", { url });
    expect(page(current)).toMatchObject({ content: "Read 1 of this page.", fromCache: false });
    expect(Date.parse(page(current).fetchedAt as string)).toBeGreaterThan(fetchedAt);

    const config = withConfig({ fetchCache: { maxAgeMs: 3 * HOUR } });
    const other = own("changing");
    await seed(other, "Another copy from two hours ago.", 2 * HOUR);
    expect(page(await tool(id, "fetch_content", { url: other }, config))).toMatchObject({ content: "Another copy from two hours ago.", fromCache: true });
  });

  it("revalidates a stale copy with its ETag: a 304 refreshes fetchedAt without extracting again", async () => {
    const id = await newSession();
    const url = own("validated");
    const first = await tool(id, "fetch_content", { url });
    expect(page(first)).toMatchObject({ content: "Version 1 of this page, full read 1.", fromCache: false });
    const revalidated = await tool(id, "fetch_content", { url, maxAge: 0 });
    expect(page(revalidated)).toMatchObject({ content: "Version 1 of this page, full read 1.", fromCache: true });
    expect(Date.parse(page(revalidated).fetchedAt as string)).toBeGreaterThanOrEqual(Date.parse(page(first).fetchedAt as string));
    const log = await logOf(url);
    expect(log).toMatchObject({ full: 1, notModified: 1 });
    expect(log.conditional).toEqual([{ ifNoneMatch: '"v1"', ifModifiedSince: new Date(Date.UTC(2025, 0, 1)).toUTCString() }]);
    expect(await fetchStats(id)).toEqual({ hits: 0, misses: 1, revalidated: 1 });
  });

  it("stores the refreshed fetchedAt of a revalidated copy", async () => {
    const id = await newSession();
    const url = own("validated");
    const fetchedAt = await seed(url, "The copy kept since.", 2 * HOUR, { etag: '"v1"' });
    const revalidated = await tool(id, "fetch_content", { url });
    expect(page(revalidated)).toMatchObject({ content: "The copy kept since.", fromCache: true });
    const refreshed = Date.parse(page(revalidated).fetchedAt as string);
    expect(refreshed).toBeGreaterThan(fetchedAt + HOUR);
    // Within the hour the refreshed copy is answered without asking the origin.
    expect(page(await tool(id, "fetch_content", { url }))).toMatchObject({ content: "The copy kept since.", fromCache: true, fetchedAt: page(revalidated).fetchedAt });
    expect((await logOf(url)).conditional).toHaveLength(1);
    expect(await fetchStats(id)).toEqual({ hits: 1, misses: 0, revalidated: 1 });
  });

  it("revalidates with Last-Modified alone, and reads a changed page in full", async () => {
    const id = await newSession();
    const url = own("validated", "&only=last-modified");
    await tool(id, "fetch_content", { url });
    expect(page(await tool(id, "fetch_content", { url, maxAge: 0 }))).toMatchObject({ fromCache: true });
    expect((await logOf(url)).conditional).toEqual([{ ifModifiedSince: new Date(Date.UTC(2025, 0, 1)).toUTCString() }]);

    await fetch(`${origin}/cache/change?page=${encodeURIComponent(url.slice(origin.length))}`);
    const changed = await tool(id, "fetch_content", { url, maxAge: 0 });
    expect(page(changed)).toMatchObject({ content: "Version 2 of this page, full read 2.", fromCache: false });
    expect(page(await tool(id, "fetch_content", { url }))).toMatchObject({ content: "Version 2 of this page, full read 2.", fromCache: true });
    expect(await fetchStats(id)).toEqual({ hits: 1, misses: 2, revalidated: 1 });
  });

  it("never keeps a page sent with Cache-Control no-store or private", async () => {
    const id = await newSession();
    for (const path of ["no-store", "private"]) {
      const url = own(path);
      await tool(id, "fetch_content", { url });
      expect(page(await tool(id, "fetch_content", { url })), path).toMatchObject({ content: "Read 2 of this page.", fromCache: false });
    }
    expect(await fetchStats(id)).toEqual({ hits: 0, misses: 4, revalidated: 0 });
  });

  it("never keeps a failure", async () => {
    const id = await newSession();
    const url = own("fails-once");
    expect((await tool(id, "fetch_content", { url })).body.error.details).toEqual({ fault: "upstream", upstreamStatus: 500 });
    expect(page(await tool(id, "fetch_content", { url }))).toMatchObject({ content: "Read 1 of this page since it failed.", fromCache: false });
  });

  it("keys on the normalised URL and every option that changes the page", async () => {
    const id = await newSession();
    const url = own("changing");
    await tool(id, "fetch_content", { url });
    // The scheme's case, dot segments, a user name and password (never sent) and options spelled out at their defaults make the same page.
    const same = url.replace("http://", "HTTP://someone:secret@").replace("/cache/", "/cache/./");
    expect(page(await tool(id, "fetch_content", { url: same, render: "auto", preferReader: false }))).toMatchObject({ url, content: "Read 1 of this page.", fromCache: true });
    expect(page(await tool(id, "fetch_content", { url, render: "never" }))).toMatchObject({ content: "Read 2 of this page.", fromCache: false });
    expect(page(await tool(id, "fetch_content", { url, preferReader: true }))).toMatchObject({ content: "Read 3 of this page.", fromCache: false });
    const shorter = withConfig({ maxContentChars: 10 });
    expect(page(await tool(id, "fetch_content", { url }, shorter))).toMatchObject({ content: "Read 4 of ", fromCache: false });
    // The fragment stays: it is part of what the answer says was asked for.
    expect(page(await tool(id, "fetch_content", { url: `${url}#part` }))).toMatchObject({ content: "Read 5 of this page.", fromCache: false });
  });

  it("is off with web.fetchCache.enabled false: every read goes to the origin, and nothing is counted", async () => {
    const config = withConfig({ fetchCache: { enabled: false } });
    const id = await newSession(config);
    const url = own("changing");
    await tool(id, "fetch_content", { url }, config);
    const second = await tool(id, "fetch_content", { url, maxAge: HOUR }, config);
    expect(page(second)).toMatchObject({ content: "Read 2 of this page.", fromCache: false, fetchedAt: expect.any(String) });
    expect(await fetchStats(id, config)).toEqual({ hits: 0, misses: 0, revalidated: 0 });
  });

  it("refuses a maxAge that is not an integer of 0 or more before anything is fetched", async () => {
    const id = await newSession();
    const url = own("changing");
    for (const maxAge of [-1, 1.5, "0", null]) {
      const res = await tool(id, "fetch_content", { url, maxAge });
      expect(res.status, String(maxAge)).toBe(400);
      expect(res.body.error).toMatchObject({ code: "INVALID_INPUT", fields: ["maxAge"] });
      const search = await tool(id, "web_search", { query: "anything", maxAge });
      expect(search.body.error, String(maxAge)).toMatchObject({ code: "INVALID_INPUT", fields: ["maxAge"] });
    }
    expect((await logOf(url)).full).toBe(0);
  });

  it("checks its settings where they are written: a TTL shorter than KV keeps, a negative maxAgeMs", async () => {
    const put = (fetchCache: object) => call("PUT", "/api/config/settings", { values: { fetchCache } });
    expect((await put({ ttlMs: 59_999 })).body.error).toMatchObject({ code: "SCHEMA_VALIDATION_FAILED", fields: ["fetchCache.ttlMs"] });
    expect((await put({ maxAgeMs: -1 })).body.error).toMatchObject({ code: "SCHEMA_VALIDATION_FAILED", fields: ["fetchCache.maxAgeMs"] });
    expect((await put({ enabled: "yes" })).body.error).toMatchObject({ code: "SCHEMA_VALIDATION_FAILED", fields: ["fetchCache.enabled"] });
    const { values } = (await call("GET", "/api/config/settings")).body;
    expect(values.fetchCache).toEqual({ enabled: true, maxAgeMs: 3_600_000, ttlMs: 604_800_000 });
  });

  it("does not keep what KV cannot hold (values over 25 MiB)", async () => {
    const settings = settingsOf();
    const cache = createFetchCache(kv, settings.fetchCache);
    const url = own("changing");
    const key = (await fetchCacheKey(url, { preferReader: false }, settings))!;
    // 9 Mi characters of three UTF-8 bytes each: 27 MiB stored.
    await cache.put(key, { page: { url, content: "€".repeat(9 * 1024 * 1024), truncated: false }, fetchedAt: Date.now() });
    expect(await cache.get(key, Infinity)).toBeUndefined();
    await cache.put(key, { page: { url, content: "€".repeat(1024), truncated: false }, fetchedAt: Date.now() });
    expect((await cache.get(key, Infinity))?.page.content).toHaveLength(1024);
  });

  it("holds copies nobody can change: not the one put, not the one got", async () => {
    const settings = settingsOf();
    const cache = createFetchCache(kv, settings.fetchCache);
    const url = own("changing");
    const key = (await fetchCacheKey(url, { preferReader: false }, settings))!;
    const entry = { page: { url, content: "kept", truncated: false, metadata: { language: "en" } }, fetchedAt: Date.now() };
    await cache.put(key, entry);
    entry.page.metadata.language = "changed after put";
    const got = (await cache.get(key, Infinity))!;
    expect(got.page.metadata).toEqual({ language: "en" });
    expect(Object.isFrozen(got.page.metadata)).toBe(true);
  });
});

describe("web_search and the fetch cache", () => {
  const search = (config: object = {}) => withConfig({ ddgs: { baseUrl: cacheSearch }, ...config });

  it("includeContent pages come from the fetch cache and say so", async () => {
    const config = search();
    const id = await newSession(config);
    const query = `q ${crypto.randomUUID()}`;
    const first = await tool(id, "web_search", { query, includeContent: true }, config);
    const result = first.body.queries[0].results[0];
    expect(result.content).toMatchObject({ content: "Read 1 of this page.", fromCache: false, fetchedAt: expect.any(String) });
    // The same page read by fetch_content is the cached copy.
    expect(page(await tool(id, "fetch_content", { url: result.url }, config))).toMatchObject({ content: "Read 1 of this page.", fromCache: true });
  });

  it("maxAge governs the search cache and the pages: 0 asks the provider and the origins again", async () => {
    const config = search();
    const id = await newSession(config);
    const query = `q ${crypto.randomUUID()}`;
    await tool(id, "web_search", { query, includeContent: true }, config);
    const cached = await tool(id, "web_search", { query, includeContent: true, maxAge: HOUR }, config);
    expect(cached.headers.get("x-cache")).toBe("HIT");
    expect(cached.body.queries[0].results[0].content).toMatchObject({ content: "Read 1 of this page.", fromCache: true });
    const fresh = await tool(id, "web_search", { query, includeContent: true, maxAge: 0 }, config);
    expect(fresh.headers.get("x-cache")).toBe("MISS");
    expect(fresh.body.queries[0].results[0].content).toMatchObject({ content: "Read 2 of this page.", fromCache: false });
  });
});
