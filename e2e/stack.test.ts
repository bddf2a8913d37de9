import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { send, startOrigin, type Origin, routes } from "../test-support/origin.ts";
import { startStack, type Stack } from "../test-support/stack.ts";

const PAGE = `<!doctype html><html><head><title>Hello from 127.0.0.2</title></head>
<body><article><h1>Hello</h1><p>A page served on a loopback origin, fetched through the whole stack.</p></article></body></html>`;

/** URL forms that must be refused by the network policy, whatever the notation. */
const BLOCKED = [
  "http://localhost/",
  "http://127.0.0.1/",
  "http://2130706433/",
  "http://0x7f000001/",
  "http://0177.0.0.1/",
  "http://127.1/",
  "http://0/",
  "http://[::1]/",
  "http://[::ffff:127.0.0.1]/",
  "http://169.254.169.254/latest/meta-data/",
  "http://10.0.0.1/",
  "http://192.168.0.1/",
  "http://printer.local/",
  "http://db.internal/",
  "http://app.localhost/",
];

describe("npm start's stack, end to end", () => {
  let origin: Origin;
  let stack: Stack;
  const persist = mkdtempSync(join(tmpdir(), "edge-web-state-"));
  const env = { WEB_CONFIG: JSON.stringify({ allowHosts: ["127.0.0.2"] }), PERSIST_DIR: persist };

  beforeAll(async () => {
    origin = await startOrigin("127.0.0.2", routes({ "/page.html": send(200, "text/html; charset=utf-8", PAGE) }));
    stack = await startStack(env);
  });

  afterAll(async () => {
    await stack?.stop();
    await origin?.close();
    rmSync(persist, { recursive: true, force: true });
  });

  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${stack.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as any };
  };

  it("fetches a local page as Markdown, blocks private URLs, and keeps results across a restart", async () => {
    const session = await post("/api/sessions", { source: "e2e" });
    expect(session.status).toBe(201);
    const id = session.body.sessionId;

    const fetched = await post(`/api/sessions/${id}/tools/fetch_content`, { url: `${origin.url}/page.html` });
    expect(fetched.status).toBe(200);
    expect(fetched.body.results[0].title).toBe("Hello from 127.0.0.2");
    expect(fetched.body.results[0].content).toContain("A page served on a loopback origin");

    for (const url of BLOCKED) {
      const blocked = await post(`/api/sessions/${id}/tools/fetch_content`, { url });
      expect(blocked.status, url).toBe(403);
      expect(blocked.body.error.code, url).toBe("CONTENT_FETCH_FAILED");
      expect(blocked.body.error.details, url).toEqual({ fault: "policy" });
      expect(blocked.body.error.message, url).toMatch(/network policy/i);
    }
    expect((await fetch(`${stack.url}/healthz`)).status).toBe(200);

    await stack.stop();
    stack = await startStack(env);
    const stored = await post(`/api/sessions/${id}/tools/get_search_content`, { responseId: fetched.body.responseId, urlIndex: 0 });
    expect(stored.status).toBe(200);
    expect(stored.body.result).toEqual(fetched.body.results[0]);
  });

  it("gives every answer the API's secure headers, HSTS included: the playground's files and the API alike", async () => {
    const api = await fetch(`${stack.url}/openapi.json`);
    expect(api.status).toBe(200);
    expect(api.headers.get("strict-transport-security")).toMatch(/max-age=\d+/);
    // The headers hono's secureHeaders gives the API, with the API's values; the page has its own frame rule (DENY).
    const names = [
      "strict-transport-security",
      "x-content-type-options",
      "referrer-policy",
      "cross-origin-opener-policy",
      "cross-origin-resource-policy",
      "origin-agent-cluster",
      "x-dns-prefetch-control",
      "x-download-options",
      "x-permitted-cross-domain-policies",
      "x-xss-protection",
      "x-frame-options",
    ];
    const own = new Set(["x-frame-options"]);
    const secure = names.map((name) => [name, api.headers.get(name)] as const);
    for (const [name, value] of secure) expect([name, value]).toEqual([name, expect.any(String)]);
    for (const path of ["/", "/index.html", "/playground.js", "/playground.css"]) {
      const res = await fetch(`${stack.url}${path}`);
      expect(res.status, path).toBe(200);
      await res.arrayBuffer();
      for (const [name, value] of secure) expect([path, name, res.headers.get(name)]).toEqual([path, name, own.has(name) ? expect.any(String) : value]);
    }
    // The files are asked only for GET and HEAD outside /api and /mcp; anything else stays the API's.
    for (const [method, path, code] of [
      ["GET", "/api/index.html", "ROUTE_NOT_FOUND"],
      ["GET", "/mcp/index.html", "ROUTE_NOT_FOUND"],
      ["GET", "/no-such-file.js", "ROUTE_NOT_FOUND"],
      ["POST", "/index.html", "ROUTE_NOT_FOUND"],
    ] as const) {
      const res = await fetch(`${stack.url}${path}`, { method });
      expect([method, path, res.status, ((await res.json()) as { error: { code: string } }).error.code]).toEqual([method, path, 404, code]);
    }
  });

  it("leaves none of its files in the temporary directory once Ctrl-C stops it", async () => {
    const temp = mkdtempSync(join(tmpdir(), "edge-web-temp-"));
    const bundles = () => readdirSync(temp).filter((name) => name.startsWith("edge-web-worker-"));
    const own = await startStack({ ...env, PERSIST_DIR: join(temp, "state"), TMPDIR: temp });
    try {
      expect(bundles()).toHaveLength(1);
      await own.stop();
      expect(bundles()).toEqual([]);
    } finally {
      await own.stop();
      rmSync(temp, { recursive: true, force: true });
    }
  });
});
