import { gzipSync } from "node:zlib";
import { createHostLimiter, DEFAULT_WEB_CONFIG, fetchOptionsFrom, type FetchOptions } from "@edge-web/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { send, startOrigin, type Origin, routes } from "../../test-support/origin.ts";
import { waitFor } from "../../test-support/wait-for.ts";
import type { FetchContentDeps } from "../src/fetch/egress-types.ts";
import { fetchContent } from "../src/fetch/fetch-content.ts";
import { createSidecarDeps, settingsFromEnv } from "../src/sidecar-deps.ts";

const HTML = `<!doctype html><html lang="en"><head><title>Pipeline Page</title>
<meta name="description" content="A test page"></head><body><main><h1>Heading</h1><p>Body text with <a href="/rel">a link</a>.</p></main></body></html>`;
const JS_SHELL = `<!doctype html><html><head><title>App</title>${"<script>var x=1;</script>".repeat(5)}</head><body><div id="root"></div></body></html>`;

let origin: Origin;
let reader: Origin;
let deps: FetchContentDeps;

const options = (over: Partial<FetchOptions> = {}): FetchOptions => ({
  ...fetchOptionsFrom(DEFAULT_WEB_CONFIG),
  allowHosts: ["127.0.0.2", "127.0.0.4"],
  timeoutMs: 2_000,
  ...over,
});
const run = (path: string, over: Partial<FetchOptions> = {}, preferReader = false) =>
  fetchContent({ url: `${origin.url}${path}`, preferReader, options: options(over) }, deps);

beforeAll(async () => {
  deps = createSidecarDeps(settingsFromEnv({}));
  origin = await startOrigin("127.0.0.2", routes({
    "/page.html": send(200, "text/html; charset=utf-8", HTML),
    "/app.html": send(200, "text/html", JS_SHELL),
    "/notes.md": send(200, "text/markdown", "# Notes\n\nSome *markdown*."),
    "/data.json": send(200, "application/json", '{"a":1}'),
    "/broken.json": send(200, "application/json", '{"a":'),
    "/table.csv": send(200, "text/csv", "name,qty\nbolt,3\n"),
    "/feed.xml": send(200, "application/rss+xml", `<?xml version="1.0"?><rss version="2.0"><channel><title>Feed</title><item><title>First</title><link>https://example.test/1</link></item></channel></rss>`),
    "/conf.yaml": send(200, "application/yaml", "title: Conf\nkey: value\n"),
    "/main.py": send(200, "text/plain", "print('hi')\n"),
    "/gz.txt": send(200, "text/plain", gzipSync("compressed words ".repeat(100)), { "content-encoding": "gzip" }),
    "/latin1.txt": send(200, "text/plain; charset=iso-8859-1", Buffer.from([0x63, 0x61, 0x66, 0xe9])),
    "/image.png": send(200, "image/png", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0])),
    "/doc.docx": send(200, "application/vnd.openxmlformats-officedocument.wordprocessingml.document", Buffer.from("PK\u0003\u0004rest")),
    "/long.txt": send(200, "text/plain", "y".repeat(5_000)),
    "/redirect": send(301, "text/plain", "", { location: "/page.html" }),
    "/500": send(500, "text/plain", "boom"),
  }));
  reader = await startOrigin("127.0.0.4", routes({}));
});

afterAll(async () => {
  await origin.close();
  await reader.close();
  await deps.dispatchers.close();
});

describe("the fetch pipeline", () => {
  it("turns HTML into Markdown with title, metadata and absolute links", async () => {
    const r = await run("/page.html");
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value).toMatchObject({ url: `${origin.url}/page.html`, title: "Pipeline Page", truncated: false, contentType: "text/html" });
    expect(r.value.content).toContain(`[a link](${origin.url}/rel)`);
    expect(r.value.metadata).toMatchObject({ description: "A test page", language: "en" });
  });

  it.each([
    ["/notes.md", "text/markdown", "Some *markdown*."],
    ["/data.json", "application/json", '"a": 1'],
    ["/table.csv", "text/csv", "| bolt | 3 |"],
    ["/feed.xml", "application/rss+xml", "First"],
    ["/conf.yaml", "application/yaml", "key: value"],
    ["/main.py", "text/plain", "print('hi')"],
    ["/gz.txt", "text/plain", "compressed words compressed words"],
    ["/latin1.txt", "text/plain", "café"],
  ])("reads %s as %s", async (path, contentType, expected) => {
    const r = await run(path);
    expect(r.ok && r.value.contentType).toBe(contentType);
    expect(r.ok && r.value.content).toContain(expected);
  });

  it("falls back to text with a parseWarning when a handler fails", async () => {
    const r = await run("/broken.json");
    expect(r.ok && r.value.content).toBe('{"a":');
    expect(r.ok && r.value.parseWarning).toMatch(/JSON/);
  });

  it("refuses binary and document types", async () => {
    const png = await run("/image.png");
    expect(!png.ok && png.error).toMatchObject({ code: "CONTENT_FETCH_FAILED", details: { fault: "unsupported-type" } });
    const docx = await run("/doc.docx");
    expect(!docx.ok && docx.error).toMatchObject({ message: expect.stringMatching(/convert_content/), details: { fault: "unsupported-type" } });
  });

  it("truncates to maxContentChars and to maxResponseBytes", async () => {
    const chars = await run("/long.txt", { maxContentChars: 1_000 });
    expect(chars.ok && chars.value).toMatchObject({ content: "y".repeat(1_000), truncated: true });
    const bytes = await run("/long.txt", { maxResponseBytes: 300 });
    expect(bytes.ok && bytes.value).toMatchObject({ content: "y".repeat(300), truncated: true });
  });

  it("reports the URL asked for, and the final URL after a redirect in metadata", async () => {
    const r = await run("/redirect");
    expect(r.ok && r.value.url).toBe(`${origin.url}/redirect`);
    expect(r.ok && r.value.metadata?.finalUrl).toBe(`${origin.url}/page.html`);
    const direct = await run("/page.html");
    expect(direct.ok && direct.value.url).toBe(`${origin.url}/page.html`);
    expect(direct.ok && direct.value.metadata?.finalUrl).toBeUndefined();
  });

  it("maps failures to the fetch codes", async () => {
    const status = await run("/500");
    expect(!status.ok && status.error).toMatchObject({ code: "CONTENT_FETCH_FAILED", message: expect.stringMatching(/HTTP 500/), details: { fault: "upstream", upstreamStatus: 500 } });
    const missing = await run("/no-such-page");
    expect(!missing.ok && missing.error).toMatchObject({ code: "CONTENT_FETCH_FAILED", message: expect.stringMatching(/HTTP 404/), details: { fault: "not-found", upstreamStatus: 404 } });
    const invalid = await fetchContent({ url: "ftp://x.test/", preferReader: false, options: options() }, deps);
    expect(!invalid.ok && invalid.error.code).toBe("CONTENT_FETCH_INVALID_URL");
    const blocked = await fetchContent({ url: "http://127.0.0.3/", preferReader: false, options: options() }, deps);
    expect(!blocked.ok && blocked.error).toMatchObject({ code: "CONTENT_FETCH_FAILED", message: expect.stringMatching(/network policy/), details: { fault: "policy" } });
    const badAllow = await fetchContent({ url: `${origin.url}/page.html`, preferReader: false, options: options({ allowHosts: ["not a host/99"] }) }, deps);
    expect(!badAllow.ok && badAllow.error.code).toBe("INVALID_INPUT");
  });

  it("never sends private pages to the reader service, even when asked", async () => {
    const jina = { enableJinaFallback: true, jinaBaseUrl: `${reader.url}/` };
    const shell = await run("/app.html", jina, true);
    expect(shell.ok && shell.value.title).toBe("App");
    expect(reader.requests).toEqual([]);
  });
});

describe("the fetch pipeline's limits", () => {
  let slow: Origin;
  /** The `ms` of each request the slow origin has answered. */
  const answeredAfterMs: number[] = [];
  beforeAll(async () => {
    slow = await startOrigin("127.0.0.5", (req, res) => {
      const ms = Number(new URL(req.url ?? "/", "http://o").searchParams.get("ms") ?? "0");
      setTimeout(() => {
        answeredAfterMs.push(ms);
        res.writeHead(200, { "content-type": "text/plain" }).end("slow body");
      }, ms).unref();
    });
  });
  afterAll(() => slow.close());
  const fetchSlow = (ms: number, over: Partial<FetchOptions>, request: { budgetMs?: number; deps?: FetchContentDeps } = {}) =>
    fetchContent(
      { url: `${slow.url}/?ms=${ms}&r=${Math.random()}`, preferReader: false, options: options({ allowHosts: ["127.0.0.5"], ...over }), ...(request.budgetMs && { budgetMs: request.budgetMs }) },
      request.deps ?? deps,
    );

  it("sizes the origin's keep-alive pool by web.connectionPool: maxSockets connections, idle ones closed after timeout", async () => {
    slow.connections.length = 0;
    const pool = { maxSockets: 1, timeout: 300 };
    const both = await Promise.all([fetchSlow(100, { connectionPool: pool }), fetchSlow(100, { connectionPool: pool })]);
    expect(both.every((r) => r.ok)).toBe(true);
    expect(slow.connections).toHaveLength(1);
    // Kept for the pool's idle timeout (300 ms), not closed as soon as its answer was read; closed once it passes.
    expect(slow.connections[0]!.destroyed).toBe(false);
    await waitFor(() => slow.connections[0]!.destroyed, "the idle connection to be closed", { timeoutMs: 2_000 });

    slow.connections.length = 0;
    const wide = { maxSockets: 4, timeout: 10_000 };
    await Promise.all([fetchSlow(100, { connectionPool: wide }), fetchSlow(100, { connectionPool: wide })]);
    expect(slow.connections).toHaveLength(2);
  });

  it("counts the wait for a per-host slot against the deadline, and says the request waited", async () => {
    const narrow = { ...deps, limiter: createHostLimiter({ maxConcurrent: 10, maxPerHost: 1, maxQueue: 10 }) };
    const [first, second] = await Promise.all([
      fetchSlow(700, {}, { budgetMs: 1_000, deps: narrow }),
      fetchSlow(700, {}, { budgetMs: 1_000, deps: narrow }),
    ]);
    expect(first.ok).toBe(true);
    // The second's own 700 ms fit its 1,000 ms budget: it ran out only because its wait for the first's slot counted.
    expect(second).toMatchObject({
      ok: false,
      error: { code: "CONTENT_FETCH_TIMEOUT", message: expect.stringMatching(/(?:waited [1-9]\d* ms in|, [1-9]\d* ms of it waiting in) the fetch service's queue/) },
    });
  });

  it("stops at the remaining budget the worker sends, not at web.timeoutMs, and lets go of the origin", async () => {
    slow.connections.length = 0;
    const answer = await fetchSlow(8_000, { timeoutMs: 10_000 }, { budgetMs: 300 });
    expect(answer).toMatchObject({ ok: false, error: { code: "CONTENT_FETCH_TIMEOUT" } });
    // Given up long before the origin's answer (8 s) and web.timeoutMs (10 s): at the 300 ms budget.
    expect(answeredAfterMs).not.toContain(8_000);
    await waitFor(() => slow.connections.every((socket) => socket.destroyed), "the request to the origin to be dropped", { timeoutMs: 5_000 });
  });

  it("answers per-step timings only when web.debug is verbose", async () => {
    const verbose = await fetchSlow(0, { debug: "verbose" });
    expect(Object.keys(verbose.timings ?? {}).sort()).toEqual(["connect", "extract", "queue", "read", "robots", "vet"]);
    expect((await fetchSlow(0, { debug: "minimal" })).timings).toBeUndefined();
  });
});
