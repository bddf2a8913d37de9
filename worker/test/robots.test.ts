import { createSemaphore, WebConfigSchema, type RobotsEntry } from "@edge-web/shared";
import { env } from "cloudflare:workers";
import * as v from "valibot";
import { describe, expect, inject, it } from "vitest";
import { createFetchCache } from "../src/cache/fetch-cache.ts";
import { createRobotsCache } from "../src/cache/robots-cache.ts";
import { robotsCacheKey } from "../src/cache/robots-cache-key.ts";
import { createSearchCache } from "../src/cache/search-cache.ts";
import type { Env } from "../src/env.ts";
import { createSidecarClient } from "../src/sidecar-client.ts";
import { fetchContentTool } from "../src/tools/fetch-content-tool.ts";
import type { ToolContext } from "../src/tools/tool.ts";
import { OPERATOR_URLS_ONLY } from "../../test-support/operator-urls.ts";
import { waitFor } from "../../test-support/wait-for.ts";
import { newSession, tool, withConfig } from "./helpers.ts";

const origin = inject("originUrl");

describe("robots.txt in workerd", () => {
  it("fetch_content of a URL the origin's robots.txt disallows for EdgeWebTools: 403 CONTENT_FETCH_FAILED, fault robots, naming the rule", async () => {
    const config = withConfig({});
    const id = await newSession(config);
    const res = await tool(id, "fetch_content", { url: `${origin}/robots-private.html` }, config);
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: "CONTENT_FETCH_FAILED", details: { fault: "robots" }, message: expect.stringContaining('"Disallow: /robots-private"') });
    expect((await tool(id, "fetch_content", { url: `${origin}/article.html` }, config)).status).toBe(200);
  });

  it("convert_content by URL: 403 CONVERT_FAILED, fault robots", async () => {
    const config = withConfig({});
    const id = await newSession(config);
    const res = await tool(id, "convert_content", { url: `${origin}/robots-private.html` }, config);
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: "CONVERT_FAILED", details: { fault: "robots" } });
  });

  it('reads it with web.robots "ignore"', async () => {
    const config = withConfig({ robots: "ignore" });
    const id = await newSession(config);
    const res = await tool(id, "fetch_content", { url: `${origin}/robots-private.html` }, config);
    expect(res.status).toBe(200);
    expect(res.body.results[0].content).toContain("Not for robots.");
  });
});

const bindings = env as unknown as Env;
const kv = bindings.CACHE;
const port = new URL(origin).port;
const localSearch = inject("localSearchUrl");

/** An origin of its own on the loopback origin (a name under robots.test), which no sidecar has read yet; "down-" ones answer robots.txt 503. */
const ownOrigin = (prefix = "") => `http://${prefix}${crypto.randomUUID()}.robots.test:${port}`;
const robotsReads = async (at: string) => (await (await fetch(`${origin}/robots-reads?host=${encodeURIComponent(new URL(at).host)}`)).json()) as number;
const keptRecord = (at: string) => waitFor(() => kv.get<RobotsEntry>(robotsCacheKey(at)!, "json"), `the robots.txt record of ${at} in KV`);
const settings = v.parse(WebConfigSchema, { allowHosts: ["127.0.0.2"], timeoutMs: 2_000 });

/** A tool call's context whose sidecar is the second one: it has never read robots.txt for the test's origins. */
function secondSidecarContext(): ToolContext {
  return {
    config: settings,
    operatorUrls: OPERATOR_URLS_ONLY,
    providerKeys: {},
    sidecar: createSidecarClient({ SIDECAR_URL: inject("secondSidecarUrl"), SIDECAR_TOKEN: bindings.SIDECAR_TOKEN }),
    store: { save: () => {}, get: () => undefined },
    attachment: async () => undefined,
    cache: createSearchCache(kv, settings.cache),
    fetchCache: createFetchCache(kv, settings.fetchCache),
    robotsCache: createRobotsCache(kv),
    record: { count: () => {}, latency: () => {}, step: () => {} },
    limiter: createSemaphore({ maxConcurrent: 2, maxQueue: 2 }),
    newResponseId: () => crypto.randomUUID(),
  };
}
const fetchThroughSecond = (url: string) => fetchContentTool.run(v.parse(fetchContentTool.params, { url }), secondSidecarContext());

describe("robots.txt records shared through KV", () => {
  it("keeps what one sidecar read in KV for 24 h, and another sidecar uses it without reading robots.txt", async () => {
    const site = ownOrigin();
    const id = await newSession();
    expect((await tool(id, "fetch_content", { url: `${site}/article.html` })).status).toBe(200);
    expect(await robotsReads(site)).toBe(1);
    const kept = await keptRecord(site);
    expect(kept).toMatchObject({ origin: site, record: { kind: "rules", url: `${site}/robots.txt`, body: expect.stringContaining("Disallow: /robots-private") } });
    const { keys } = await kv.list({ prefix: robotsCacheKey(site)! });
    expect(keys[0]!.expiration! * 1000 - kept.readAt).toBeGreaterThan(23 * 3_600_000);

    const refused = await fetchThroughSecond(`${site}/robots-private.html`);
    expect(refused).toMatchObject({ ok: false, error: { code: "CONTENT_FETCH_FAILED", details: { fault: "robots" }, message: expect.stringContaining('"Disallow: /robots-private"') } });
    expect((await fetchThroughSecond(`${site}/notes.txt`)).ok).toBe(true);
    expect(await robotsReads(site)).toBe(1);
  });

  it("keeps a failed read (a refusal) for 10 minutes", async () => {
    const site = ownOrigin("down-");
    const res = await tool(await newSession(), "fetch_content", { url: `${site}/article.html` });
    expect(res.body.error).toMatchObject({ code: "CONTENT_FETCH_FAILED", details: { fault: "robots" } });
    const kept = await keptRecord(site);
    expect(kept).toMatchObject({ origin: site, record: { kind: "disallow-all", why: "answered HTTP 503" } });
    const { keys } = await kv.list({ prefix: robotsCacheKey(site)! });
    expect(keys[0]!.expiration! * 1000 - kept.readAt).toBeLessThanOrEqual(11 * 60_000);
    expect(await fetchThroughSecond(`${site}/notes.txt`)).toMatchObject({ ok: false, error: { details: { fault: "robots" } } });
    expect(await robotsReads(site)).toBe(1);
  });

  it("ignores a record in KV that does not pass: reads robots.txt again and keeps the new record", async () => {
    const site = ownOrigin();
    // Another origin's rules, disallowing everything, under this origin's key.
    const forged = { origin: site, readAt: Date.now(), record: { kind: "rules", url: "http://elsewhere.test/robots.txt", body: "User-agent: *\nDisallow: /\n" } };
    await kv.put(robotsCacheKey(site)!, JSON.stringify(forged));
    expect((await fetchThroughSecond(`${site}/article.html`)).ok).toBe(true);
    expect(await robotsReads(site)).toBe(1);
    expect(await waitFor(async () => (await kv.get<RobotsEntry>(robotsCacheKey(site)!, "json"))?.record.url === `${site}/robots.txt`, "the record read anew in KV")).toBe(true);
  });

  it("keeps the records of convert_content by URL and of web_search's includeContent pages", async () => {
    const site = ownOrigin();
    const converted = await tool(await newSession(), "convert_content", { url: `${site}/robots-private.html` });
    expect(converted.body.error).toMatchObject({ code: "CONVERT_FAILED", details: { fault: "robots" } });
    expect(await keptRecord(site)).toMatchObject({ origin: site, record: { kind: "rules" } });

    const search = { WEB_CONFIG: JSON.stringify({ allowHosts: ["127.0.0.2"], timeoutMs: 2_000, provider: "ddgs", ddgs: { baseUrl: localSearch } }) };
    const res = await tool(await newSession(search), "web_search", { query: crypto.randomUUID(), includeContent: true }, search);
    expect(res.status).toBe(200);
    const pages = `http://pages.test:${port}`;
    expect(await keptRecord(pages)).toMatchObject({ origin: pages, record: { kind: "rules", url: `${pages}/robots.txt` } });
  });
});
