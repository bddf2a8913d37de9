import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCrawlSite, type CrawlSite } from "../test-support/crawl-site.ts";
import { reply, startOrigin, type Origin } from "../test-support/origin.ts";
import { sseReader } from "../test-support/sse-reader.ts";
import { startStack, type Stack } from "../test-support/stack.ts";
import { waitFor } from "../test-support/wait-for.ts";

const SITE_HOST = "127.0.0.41";
const CANARY_HOST = "127.0.0.9";

let canary: Origin;
let site: CrawlSite;

beforeAll(async () => {
  canary = await startOrigin(CANARY_HOST, reply(200, "canary"));
  // Links that leave the site for places the network policy refuses: the canary (another loopback
  // address), the same address in decimal notation, a private range, and a name for loopback.
  site = await startCrawlSite(SITE_HOST, { canary: canary.url, privateUrl: "http://10.0.0.1/admin", loopbackName: `http://2130706441:${canary.port}/decimal` });
});

afterAll(async () => {
  await Promise.all([site?.close(), canary?.close()]);
});

const webConfig = (crawl: object = {}) => JSON.stringify({ allowHosts: [SITE_HOST], timeoutMs: 4_000, jinaTimeoutMs: 1_000, crawl: { hostDelayMs: 0, ...crawl } });

async function session(stack: Stack): Promise<string> {
  const created = await stack.api("POST", "/api/sessions", { source: "crawl-test" });
  expect(created.status).toBe(201);
  return created.body.sessionId;
}

async function finished(stack: Stack, sessionId: string, crawlId: string) {
  let state: any;
  await waitFor(async () => {
    state = (await stack.api("GET", `/api/sessions/${sessionId}/crawls/${crawlId}`)).body;
    return state.status !== "running";
  }, `crawl ${crawlId} to end`, { timeoutMs: 60_000, intervalMs: 200 });
  return state;
}

describe("map and crawl over npm start", () => {
  let stack: Stack;
  let sessionId: string;

  // State of its own: crawls other tests' stacks left running in the default state would count against this owner's places.
  const persist = mkdtempSync(join(tmpdir(), "crawl-e2e-"));

  beforeAll(async () => {
    stack = await startStack({ WEB_CONFIG: webConfig(), PERSIST_DIR: persist });
    sessionId = await session(stack);
  }, 90_000);

  afterAll(async () => {
    await stack?.stop();
    rmSync(persist, { recursive: true, force: true });
  });

  it("maps the site from its sitemap index (a gzipped part too), llms.txt and the start page's links", async () => {
    const map = await stack.api("POST", `/api/sessions/${sessionId}/map`, { url: `${site.url}/` });
    expect(map.status).toBe(200);
    const { urls, counts } = map.body;
    // 150 docs and 120 posts from the sitemaps, /pricing from llms.txt, and the home page's own links that
    // are neither (/calendar, /search, /private/secret, /missing, /broken, /slow, /huge); /private/secret is robots.txt's.
    // Four sitemap files: the index, its two parts, and /sitemap.xml (a 404).
    expect(counts).toMatchObject({ found: 278, matched: 277, skippedByRobots: 1, skippedByPolicy: 0, sitemaps: 4 });
    expect(urls[0]).toEqual({ url: `${site.url}/docs/1`, source: "sitemap", lastmod: "2026-11-20", title: "Docs start" });
    expect(urls.find((entry: any) => entry.url.endsWith("/blog/120"))).toMatchObject({ source: "sitemap" });
    const searched = await stack.api("POST", `/api/sessions/${sessionId}/map`, { url: `${site.url}/`, search: "pricing" });
    expect(searched.body.urls).toEqual([{ url: `${site.url}/pricing`, source: "llms.txt", title: "Pricing" }]);
  });

  it("refuses bad maps and crawls with the field named, and a start the policy refuses with 403", async () => {
    const bad = async (path: string, body: object, status: number, field?: string) => {
      const answer = await stack.api("POST", `/api/sessions/${sessionId}/${path}`, body);
      expect(answer.status, JSON.stringify(answer.body)).toBe(status);
      if (field) expect(answer.body.error.fields).toEqual([field]);
      return answer.body.error;
    };
    await bad("crawls", { url: `${site.url}/`, limit: 0 }, 400, "limit");
    await bad("crawls", { url: `${site.url}/`, limit: 501 }, 400, "limit");
    await bad("crawls", { url: `${site.url}/`, maxDepth: 6 }, 400, "maxDepth");
    await bad("crawls", { url: `${site.url}/`, includePaths: ["/docs /x"] }, 400, "includePaths");
    await bad("map", { url: `${site.url}/`, limit: 5_001 }, 400, "limit");
    const long = `${site.url}/?${"q".repeat(16_384)}`;
    expect((await bad("map", { url: long }, 400, "url")).message).toContain("at most 16384 characters");
    await bad("crawls", { url: long }, 400, "url");
    expect((await bad("crawls", { url: `${canary.url}/` }, 403)).code).toBe("CONTENT_FETCH_FAILED");
    expect((await bad("crawls", { url: "ftp://example.com/" }, 400)).code).toBe("CONTENT_FETCH_INVALID_URL");
    expect((await stack.api("GET", `/api/sessions/${sessionId}/crawls/${crypto.randomUUID()}`)).status).toBe(404);
  });

  it("crawls the start page's links one level deep: every page's outcome reported, skips counted by reason, the policy's refusals never fetched", async () => {
    const stream = await fetch(`${stack.url}/api/sessions/${sessionId}/stream`, { headers: { "last-event-id": "0" } });
    site.resetMaxInFlight();
    const started = await stack.api("POST", `/api/sessions/${sessionId}/crawls`, { url: `${site.url}/`, sources: "links", maxDepth: 1, allowExternal: true, limit: 50 });
    expect(started.status).toBe(202);
    const state = await finished(stack, sessionId, started.body.crawlId);
    expect(state.status).toBe("completed");
    // The three links to refused addresses are counted before anything is queued: their hosts were vetted first.
    expect(state.counts).toEqual({
      discovered: 11,
      fetched: 8,
      failed: 2,
      skippedByRobots: 1,
      skippedByFilter: 23,
      skippedByPolicy: 3,
      skippedByLimit: 0,
      skippedByTrap: 0,
      bytes: expect.any(Number),
    });
    const byPath = Object.fromEntries(state.pages.map((page: any) => [page.url.replace(site.url, ""), page]));
    expect(byPath["/missing"]).toMatchObject({ status: "failed", code: "CONTENT_FETCH_FAILED" });
    expect(byPath["/broken"]).toMatchObject({ status: "failed", code: "CONTENT_FETCH_FAILED" });
    expect(byPath["/private/secret"]).toMatchObject({ status: "skipped", code: "CONTENT_FETCH_FAILED" });
    expect(byPath["/slow"]).toMatchObject({ status: "fetched", depth: 1 });
    // Every fetched page is a stored result of the session.
    const read = await stack.api("POST", `/api/sessions/${sessionId}/tools/get_search_content`, { responseId: byPath["/pricing"].responseId });
    expect(read.status).toBe(200);
    expect(JSON.stringify(read.body)).toContain("Pricing is a page of the generated test site");
    expect(site.maxInFlight()).toBeLessThanOrEqual(2);
    expect(canary.requests).toEqual([]);
    // The stream carried the crawl: started, a page event per settled page, finished (replayed from the start).
    const reader = sseReader(stream.body!);
    const events: any[] = [];
    await waitFor(async () => {
      const frame = await reader.next();
      if (frame?.data?.chunk?.type === "data-crawl" && frame.data.chunk.data.crawlId === started.body.crawlId) events.push(frame.data.chunk.data);
      return events.at(-1)?.event === "finished";
    }, "the crawl's finished frame");
    await reader.cancel();
    expect(events[0]).toMatchObject({ event: "started", limit: 50 });
    expect(events.filter((event) => event.event === "page")).toHaveLength(11);
  });

  it("bounds a faceted search's query variants and a calendar's depth", async () => {
    const facets = await stack.api("POST", `/api/sessions/${sessionId}/crawls`, { url: `${site.url}/search?color=red`, sources: "links", maxDepth: 2, limit: 100 });
    const facetState = await finished(stack, sessionId, facets.body.crawlId);
    // 20 facet links at depth 1: 10 followed (web.crawl.maxQueryVariants), 10 a trap; their 20 links of page 2 all a trap.
    expect(facetState.counts).toMatchObject({ fetched: 11, skippedByTrap: 30 });
    const calendar = await stack.api("POST", `/api/sessions/${sessionId}/crawls`, { url: `${site.url}/calendar?month=2026-01`, sources: "links", maxDepth: 5, limit: 100 });
    const calendarState = await finished(stack, sessionId, calendar.body.crawlId);
    expect(calendarState.counts).toMatchObject({ fetched: 6, skippedByFilter: 1 });
  });

  it("cancels a crawl, and answers 429 with Retry-After past web.crawl.maxConcurrentCrawls", async () => {
    const start = () => stack.api("POST", `/api/sessions/${sessionId}/crawls`, { url: `${site.url}/`, sources: "sitemap", limit: 300 });
    const first = await start();
    const second = await start();
    expect([first.status, second.status]).toEqual([202, 202]);
    const third = await fetch(`${stack.url}/api/sessions/${sessionId}/crawls`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ url: `${site.url}/` }) });
    expect(third.status).toBe(429);
    expect(Number(third.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await third.json()) as any).error.code).toBe("CRAWL_LIMIT_REACHED");
    for (const crawl of [first, second]) {
      const cancelled = await stack.api("DELETE", `/api/sessions/${sessionId}/crawls/${crawl.body.crawlId}`);
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.status).toBe("cancelled");
    }
    const after = (await stack.api("GET", `/api/sessions/${sessionId}/crawls/${first.body.crawlId}`)).body;
    expect(after.status).toBe("cancelled");
    expect(after.counts.fetched).toBeLessThan(300);
    // A place is free again.
    const fourth = await start();
    expect(fourth.status).toBe(202);
    await stack.api("DELETE", `/api/sessions/${sessionId}/crawls/${fourth.body.crawlId}`);
    // Another session cannot read this session's crawl.
    const other = await session(stack);
    expect((await stack.api("GET", `/api/sessions/${other}/crawls/${first.body.crawlId}`)).status).toBe(404);
  });
});

describe("a crawl's time and bytes", () => {
  it("ends completed, saying which bound it reached: web.crawl.maxBytes after its first page, web.crawl.maxDurationMs before any", async () => {
    const persist = mkdtempSync(join(tmpdir(), "crawl-bounds-"));
    const stack = await startStack({ WEB_CONFIG: webConfig({ maxBytes: 1 }), PERSIST_DIR: persist });
    try {
      const id = await session(stack);
      const started = await stack.api("POST", `/api/sessions/${id}/crawls`, { url: `${site.url}/`, sources: "links", limit: 20 });
      const state = await finished(stack, id, started.body.crawlId);
      expect(state).toMatchObject({ status: "completed", reason: expect.stringMatching(/web\.crawl\.maxBytes/), counts: { fetched: 1 } });
      expect(state.pages.filter((page: any) => page.code === "NOT_STARTED").length).toBeGreaterThan(0);
    } finally {
      await stack.stop();
      rmSync(persist, { recursive: true, force: true });
    }
    const quick = mkdtempSync(join(tmpdir(), "crawl-bounds-"));
    const short = await startStack({ WEB_CONFIG: webConfig({ maxDurationMs: 1 }), PERSIST_DIR: quick });
    try {
      const id = await session(short);
      const started = await short.api("POST", `/api/sessions/${id}/crawls`, { url: `${site.url}/`, sources: "links", limit: 20 });
      const state = await finished(short, id, started.body.crawlId);
      expect(state).toMatchObject({ status: "completed", reason: expect.stringMatching(/web\.crawl\.maxDurationMs/), counts: { fetched: 0 } });
    } finally {
      await short.stop();
      rmSync(quick, { recursive: true, force: true });
    }
  }, 120_000);
});

describe("a crawl whose session is deleted", () => {
  it("ends at its next page, freeing its place among the owner's crawls", async () => {
    const persist = mkdtempSync(join(tmpdir(), "crawl-deleted-"));
    const stack = await startStack({ WEB_CONFIG: webConfig({ hostDelayMs: 100 }), PERSIST_DIR: persist });
    try {
      const [gone, kept] = [await session(stack), await session(stack)];
      const start = (id: string) => stack.api("POST", `/api/sessions/${id}/crawls`, { url: `${site.url}/`, sources: "sitemap", limit: 300 });
      expect((await start(gone)).status).toBe(202);
      const keptCrawl = await start(kept);
      expect(keptCrawl.status).toBe(202);
      // Both of the owner's places are taken.
      expect((await start(kept)).status).toBe(429);
      expect((await stack.api("DELETE", `/api/sessions/${gone}`)).status).toBe(200);
      let third: { status: number; body: any } | undefined;
      await waitFor(async () => (third = await start(kept)).status === 202, "the deleted session's crawl to end and free its place");
      for (const crawl of [keptCrawl, third!]) await stack.api("DELETE", `/api/sessions/${kept}/crawls/${crawl.body.crawlId}`);
    } finally {
      await stack.stop();
      rmSync(persist, { recursive: true, force: true });
    }
  }, 120_000);
});

describe("a crawl across a restart", () => {
  it("goes on after the stack restarts in the middle, each page fetched and stored once", async () => {
    const persist = mkdtempSync(join(tmpdir(), "crawl-restart-"));
    const env = { WEB_CONFIG: webConfig({ hostDelayMs: 150 }), PERSIST_DIR: persist };
    let stack = await startStack(env);
    try {
      const sessionId = await session(stack);
      const started = await stack.api("POST", `/api/sessions/${sessionId}/crawls`, { url: `${site.url}/`, sources: "sitemap", limit: 40 });
      expect(started.status).toBe(202);
      const { crawlId } = started.body;
      await waitFor(async () => (await stack.api("GET", `/api/sessions/${sessionId}/crawls/${crawlId}`)).body.counts.fetched >= 5, "five pages fetched");
      await stack.stop();
      stack = await startStack(env);
      const state = await finished(stack, sessionId, crawlId);
      expect(state.status).toBe("completed");
      expect(state.counts.fetched).toBe(40);
      const ids = state.pages.map((page: any) => page.responseId).filter(Boolean);
      expect(new Set(ids).size).toBe(40);
    } finally {
      await stack.stop();
      rmSync(persist, { recursive: true, force: true });
    }
  }, 120_000);
});
