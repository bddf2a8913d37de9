import { DEFAULT_WEB_CONFIG, fetchOptionsFrom, type FetchOptions, type Validators } from "@edge-web/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cacheOriginRoutes, type PageLog } from "../../test-support/cache-origin.ts";
import { routes, send, startOrigin, type Origin } from "../../test-support/origin.ts";
import { fetchContent, type FetchContentRequest } from "../src/fetch/fetch-content.ts";
import { createSidecarDeps, settingsFromEnv } from "../src/sidecar-deps.ts";

const SCRIPTED = `<!doctype html><html><head><title>Built</title>${"<script>var a=1;</script>".repeat(4)}</head><body><div id="root"></div>
<script>document.getElementById("root").innerHTML = "<article><h1>Built</h1><p>A script wrote this article, so only a browser reads it.</p></article>";</script></body></html>`;

let origin: Origin;
let deps: ReturnType<typeof createSidecarDeps>;

const options = (over: Partial<FetchOptions> = {}): FetchOptions => ({ ...fetchOptionsFrom(DEFAULT_WEB_CONFIG), allowHosts: ["127.0.0.2"], timeoutMs: 8_000, ...over });
const run = (path: string, over: Partial<FetchContentRequest> = {}) => fetchContent({ url: `${origin.url}${path}`, preferReader: false, options: options(), ...over }, deps);
const logOf = async (path: string) => (await (await fetch(`${origin.url}/cache/log?page=${encodeURIComponent(path)}`)).json()) as PageLog;
const own = (path: string, query = "") => `/cache/${path}?k=${crypto.randomUUID()}${query}`;
const JAN_1 = new Date(Date.UTC(2025, 0, 1)).toUTCString();

beforeAll(async () => {
  deps = createSidecarDeps(settingsFromEnv({}));
  origin = await startOrigin(
    "127.0.0.2",
    routes({
      ...cacheOriginRoutes(),
      "/unasked-304": send(304, "text/plain", ""),
      "/built.html": send(200, "text/html; charset=utf-8", SCRIPTED, { etag: '"built"', "cache-control": "max-age=60" }),
    }),
  );
});

afterAll(async () => {
  await origin.close();
  await deps.renderer.close();
  await deps.dispatchers.close();
  await deps.converter.close();
});

describe("what the origin says about keeping a page", () => {
  it("answers a page with its validators and Cache-Control", async () => {
    const answer = await run(own("validated"));
    expect(answer).toMatchObject({ ok: true, caching: { validators: { etag: '"v1"', lastModified: JAN_1 } } });
    expect(await run(own("no-store"))).toMatchObject({ ok: true, caching: { cacheControl: "no-store" } });
    const plain = await run(own("changing"));
    expect(plain.ok && plain.caching).toEqual({});
  });

  it("leaves a rendered page's validators out: they describe the HTML served, not what the scripts made of it", async () => {
    const answer = await run("/built.html", { render: "always" });
    expect(answer).toMatchObject({ ok: true, value: { metadata: { rendered: true } } });
    expect(answer.ok && answer.caching).toEqual({ cacheControl: "max-age=60" });
  });
});

describe("a conditional request for a cached copy", () => {
  const revalidate = (path: string, validators: Validators) => run(path, { revalidate: validators });

  it("sends If-None-Match and If-Modified-Since, and reports the origin's 304 without extracting", async () => {
    const path = own("validated");
    const answer = await revalidate(path, { etag: '"v1"', lastModified: JAN_1 });
    expect(answer).toEqual({ ok: true, notModified: true, caching: { validators: { etag: '"v1"', lastModified: JAN_1 } } });
    expect(await logOf(path)).toEqual({ full: 0, notModified: 1, conditional: [{ ifNoneMatch: '"v1"', ifModifiedSince: JAN_1 }] });
  });

  it("sends only the validators the copy has", async () => {
    const path = own("validated", "&only=last-modified");
    expect(await revalidate(path, { lastModified: JAN_1 })).toMatchObject({ ok: true, notModified: true });
    expect((await logOf(path)).conditional).toEqual([{ ifModifiedSince: JAN_1 }]);
  });

  it("answers the whole page when it has changed", async () => {
    const path = own("validated");
    await fetch(`${origin.url}/cache/change?page=${encodeURIComponent(path)}`);
    const answer = await revalidate(path, { etag: '"v1"' });
    expect(answer).toMatchObject({ ok: true, value: { content: "Version 2 of this page, full read 1." }, caching: { validators: { etag: '"v2"' } } });
  });

  it("holds a 304 nobody asked for as the upstream's failure", async () => {
    const answer = await run("/unasked-304");
    expect(answer).toMatchObject({ ok: false, error: { code: "CONTENT_FETCH_FAILED", details: { fault: "upstream", upstreamStatus: 304 } } });
  });

  it("goes through the network policy like any fetch", async () => {
    const path = own("validated");
    const answer = await fetchContent({ url: `${origin.url}${path}`, preferReader: false, options: options({ allowHosts: [] }), revalidate: { etag: '"v1"' } }, deps);
    expect(answer).toMatchObject({ ok: false, error: { code: "CONTENT_FETCH_FAILED", details: { fault: "policy" } } });
    expect(await logOf(path)).toEqual({ full: 0, notModified: 0, conditional: [] });
  });
});
