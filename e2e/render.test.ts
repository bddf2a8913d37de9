import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenAI } from "../test-support/fake-openai.ts";
import type { FakeModelServer } from "../test-support/model-script.ts";
import { routes, send, startOrigin, type Origin } from "../test-support/origin.ts";
import { sseReader } from "../test-support/sse-reader.ts";
import { startStack, type Stack } from "../test-support/stack.ts";
import { waitFor } from "../test-support/wait-for.ts";
import { freePort } from "../test-support/free-port.ts";
import { selfSignedCert } from "../sidecar/test/support/tls.ts";

const KEY = "sk-e2e-render-key-0123456789";
/** The HTTPS origin on port 443 listens on a loopback address of its own for each run: a port is fixed, and another run may be listening at the same time. */
const SECURE_HOST = `127.44.${1 + Math.floor(Math.random() * 254)}.${1 + Math.floor(Math.random() * 254)}`;
const SIDECAR_TOKEN = "e2e-render-sidecar-token-0123456789";
/** A page whose article a script writes, and whose script also reaches for a canary the network policy must keep it from. */
const appPage = (canary: string) => `<!doctype html><html><head><title>Script app</title></head><body><div id="app"></div><script>
fetch("${canary}/from-fetch").catch(() => {});
new Image().src = "${canary}/from-img";
setTimeout(() => {
  document.getElementById("app").innerHTML = "<article><h1>Written by a script</h1><p>Only a browser running this page sees this sentence about rendered pages.</p><p>A second paragraph, so the page reads as an article.</p></article>";
}, 300);
</script></body></html>`;

describe("rendering script-built pages over npm start's stack", () => {
  let origin: Origin;
  let canary: Origin;
  let model: FakeModelServer;
  let stack: Stack;
  let sidecarPort: number;
  /** An HTTPS origin on port 443, whose URLs leave the port out; the sidecar trusts its certificate as a test CA. */
  let secure: Origin;
  let caDir: string;

  beforeAll(async () => {
    // The canary is on loopback too, but not allowed: the browser's requests to it must be refused.
    canary = await startOrigin("127.0.0.9", routes({}));
    origin = await startOrigin(
      "127.0.0.2",
      routes({
        "/app.html": send(200, "text/html; charset=utf-8", appPage(canary.url)),
        // Its script never ends: the page never loads, and holds a render slot until its deadline.
        "/busy.html": send(200, "text/html; charset=utf-8", `<!doctype html><html><head><title>Busy</title></head><body><div id="app"></div><script>for (;;) {}</script></body></html>`),
      }),
    );
    const cert = selfSignedCert(SECURE_HOST);
    secure = await startOrigin(SECURE_HOST, routes({ "/app.html": send(200, "text/html; charset=utf-8", appPage(canary.url)) }), { port: 443, tls: cert });
    caDir = mkdtempSync(join(tmpdir(), "e2e-render-ca-"));
    writeFileSync(join(caDir, "ca.pem"), cert.cert);
    model = await startFakeOpenAI({ apiKey: KEY, models: ["render-model"] });
    sidecarPort = await freePort();
    stack = await startStack({
      SIDECAR_PORT: String(sidecarPort),
      SIDECAR_TOKEN,
      // The static read trusts the test certificate through Node's extra CAs, the browser through the test-only setting.
      NODE_EXTRA_CA_CERTS: join(caDir, "ca.pem"),
      SIDECAR_TEST_MODE: "1",
      SIDECAR_TEST_TRUST_SPKI: cert.spki,
      // Every call renders: the fetch cache would answer a page read before without the browser (and the stack's KV outlives a run).
      WEB_CONFIG: JSON.stringify({ allowHosts: ["127.0.0.2", SECURE_HOST], fetchCache: { enabled: false } }),
      AGENT_CONFIG: JSON.stringify({ modelProviders: { local: { api: "openai-compatible", baseURL: model.baseURL, apiKey: KEY } }, defaultModel: "render-model" }),
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await model?.close();
    await origin?.close();
    await secure?.close();
    await canary?.close();
    if (caDir) rmSync(caDir, { recursive: true, force: true });
  });

  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${stack.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as any };
  };
  const newSession = async () => (await post("/api/sessions", { source: "e2e" })).body.sessionId as string;

  it("through the HTTP API: never gets the empty shell, auto and always the article, and the canary sees nothing", async () => {
    const id = await newSession();
    const url = `${origin.url}/app.html`;
    const never = await post(`/api/sessions/${id}/tools/fetch_content`, { url, render: "never" });
    expect(never.status).toBe(200);
    expect(never.body.results[0].content).not.toContain("Written by a script");
    for (const render of ["auto", "always"]) {
      const rendered = await post(`/api/sessions/${id}/tools/fetch_content`, { url, render });
      expect(rendered.status, JSON.stringify(rendered.body)).toBe(200);
      expect(rendered.body.results[0].content).toContain("Written by a script");
      expect(rendered.body.results[0].metadata).toMatchObject({ rendered: true });
    }
    expect(canary.requests).toEqual([]);
    // What the browser was refused reaches the session's stats (the canary fetch and image), and the sidecar's for operators.
    const stats = (await (await fetch(`${stack.url}/api/sessions/${id}/stats`)).json()) as any;
    expect(stats.stats.web).toMatchObject({ pagesRendered: 2 });
    expect(stats.stats.web.renderRequestsRefused).toBeGreaterThanOrEqual(2);
    const health = await fetch(`http://127.0.0.1:${sidecarPort}/healthz`, { headers: { authorization: `Bearer ${SIDECAR_TOKEN}` } });
    const render = ((await health.json()) as any).render;
    expect(render.pages).toBeGreaterThanOrEqual(2);
    expect(render.refused).toBeGreaterThanOrEqual(stats.stats.web.renderRequestsRefused);
    expect(render).toMatchObject({ restarts: 0, browsers: 1 });
    expect(render.rssBytes).toBeGreaterThan(20 * 1024 * 1024);
  });

  it("renders an https page on port 443, whose URL leaves the port out", async () => {
    const id = await newSession();
    const rendered = await post(`/api/sessions/${id}/tools/fetch_content`, { url: `https://${SECURE_HOST}/app.html`, render: "always" });
    expect(rendered.status, JSON.stringify(rendered.body)).toBe(200);
    expect(rendered.body.results[0].content).toContain("Written by a script");
    expect(rendered.body.results[0].metadata).toMatchObject({ rendered: true });
    // The static read and the browser's document.
    expect(secure.requests.filter((q) => q.url === "/app.html")).toHaveLength(2);
    expect(canary.requests).toEqual([]);
  });

  it("renders one session's page while another session's two busy pages are in flight (one render slot each at most)", async () => {
    const [busy, other] = [await newSession(), await newSession()];
    // The browser sends our User-Agent too; its navigations say sec-fetch-mode: navigate, which no static read sends.
    const inBrowser = () => origin.requests.filter((q) => q.url.startsWith("/busy.html") && q.headers["sec-fetch-mode"] === "navigate").length;
    const before = inBrowser();
    const busyCall = post(`/api/sessions/${busy}/tools/fetch_content`, { urls: [`${origin.url}/busy.html?1`, `${origin.url}/busy.html?2`], render: "always" });
    await waitFor(() => inBrowser() > before, "a busy page in the browser");
    const rendered = await post(`/api/sessions/${other}/tools/fetch_content`, { url: `${origin.url}/app.html`, render: "always" });
    expect(rendered.status, JSON.stringify(rendered.body)).toBe(200);
    expect(rendered.body.results[0].content).toContain("Written by a script");
    await busyCall;
  });

  it("over MCP and in an agent turn, with the same result", async () => {
    const client = new Client({ name: "e2e-render", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${stack.url}/mcp`)));
    const listed = await client.listTools();
    expect(JSON.stringify(listed.tools.find((t) => t.name === "fetch_content")?.inputSchema)).toContain("always");
    const viaMcp = (await client.callTool({ name: "fetch_content", arguments: { url: `${origin.url}/app.html`, render: "always" } })) as { content: Array<{ text?: string }> };
    expect(viaMcp.content.map((c) => c.text ?? "").join("\n")).toContain("Written by a script");
    await client.close();

    model.script.script({ toolCalls: [{ name: "fetch_content", arguments: { url: `${origin.url}/app.html`, render: "always" } }] }, { text: ["It was written by a script."] });
    const id = await newSession();
    const stream = sseReader((await fetch(`${stack.url}/api/sessions/${id}/stream`)).body!);
    expect((await post(`/api/sessions/${id}/messages`, { message: "What does the app page say?" })).status).toBe(200);
    const output = await waitFor(async () => {
      const frame = await stream.next();
      return frame?.data?.chunk?.type === "tool-output-available" && frame.data.chunk.output;
    }, "the turn's tool output");
    await stream.cancel();
    expect(JSON.stringify(output)).toContain("Written by a script");
    expect(canary.requests).toEqual([]);
  });
});
