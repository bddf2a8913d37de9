import dgram from "node:dgram";
import http from "node:http";
import { connect as netConnect } from "node:net";
import { createHostLimiter, DEFAULT_WEB_CONFIG, fetchOptionsFrom, type FetchOptions, type RenderMode } from "@edge-web/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { send, startOrigin, routes, type Origin } from "../../test-support/origin.ts";
import type { FetchContentDeps } from "../src/fetch/egress-types.ts";
import { fetchContent } from "../src/fetch/fetch-content.ts";
import { browserPathFrom, createRenderer } from "../src/render/create-renderer.ts";
import type { TunnelConnector } from "../src/render/egress-proxy.ts";
import type { Renderer, RenderingDeps } from "../src/fetch/render-types.ts";
import { startDnsServer, type DnsServer } from "./support/dns-server.ts";
import { egressDeps } from "./support/egress.ts";

const RENDER_SETTINGS = { concurrency: 2, maxQueue: 8, maxPages: 100, maxRssBytes: 4 * 1024 ** 3 };
const SCRIPTS = "<script>var a=1;</script>".repeat(4);
const page = (body: string, head = "") => `<!doctype html><html><head><title>Fixture</title>${SCRIPTS}${head}</head><body>${body}</body></html>`;
const ARTICLE = "The rendered article explains how lighthouses keep ships away from rocks at night, paragraph after paragraph.";

/** Only loopback, ever: a tunnel to anything else is a test failure, not a connection. */
const loopbackTunnel: TunnelConnector = (vetted, port) => {
  if (!vetted.address.startsWith("127.") && vetted.address !== "::1") throw new Error(`test guard: refusing to tunnel to ${vetted.address}`);
  return netConnect({ host: vetted.address, port });
};

let dns: DnsServer;
let origin: Origin;
let canary9: Origin;
let canary1: Origin;
let udpCanary: dgram.Socket;
let udpPackets = 0;
let renderer: Renderer;
let deps: FetchContentDeps & RenderingDeps;

const options = (over: Partial<FetchOptions> = {}): FetchOptions => ({ ...fetchOptionsFrom(DEFAULT_WEB_CONFIG), allowHosts: ["127.0.0.2"], timeoutMs: 8_000, ...over });
const run = (path: string, render: RenderMode, over: { budgetMs?: number; deps?: FetchContentDeps & RenderingDeps; options?: Partial<FetchOptions> } = {}) =>
  fetchContent({ url: `${origin.url}${path}`, preferReader: false, render, options: options(over.options), ...(over.budgetMs && { budgetMs: over.budgetMs }) }, over.deps ?? deps);

function hostilePage(): string {
  const c9 = `http://127.0.0.9:${canary9.port}`;
  const c1port = canary1.port;
  const targets = [
    `${c9}/fetch`,
    `http://canary.test:${canary9.port}/dns`,
    `http://private.test:${canary9.port}/private`,
    `http://localhost:${c1port}/localhost`,
    `http://a.localhost:${c1port}/sub-localhost`,
    `http://[::ffff:127.0.0.1]:${c1port}/mapped`,
    `http://2130706433:${c1port}/decimal`,
    `http://0177.0.0.1:${c1port}/octal`,
    `http://rebind.test:${canary9.port}/rebind`,
    `https://127.0.0.9:${canary9.port}/tls`,
  ];
  return page(
    `<div id="root"></div>
<img src="${c9}/img"><iframe src="${c9}/iframe"></iframe><iframe src="file:///etc/passwd"></iframe>
<iframe name="sink" style="display:none"></iframe>
<form id="f" method="post" action="${c9}/form" target="sink"><input name="x" value="1"></form>
<script>
document.getElementById("root").innerHTML = "<article><h1>Public part</h1><p>${ARTICLE}</p></article>";
for (const url of ${JSON.stringify(targets)}) fetch(url).catch(() => {});
const xhr = new XMLHttpRequest(); xhr.open("GET", "${c9}/xhr"); xhr.send();
navigator.sendBeacon("${c9}/beacon", "data");
try { new WebSocket("ws://127.0.0.9:${canary9.port}/ws"); } catch {}
try { new EventSource("${c9}/events"); } catch {}
document.getElementById("f").submit();
try {
  const pc = new RTCPeerConnection({ iceServers: [{ urls: "stun:127.0.0.9:${canary9.port}" }] });
  pc.createDataChannel("x");
  pc.createOffer().then((offer) => pc.setLocalDescription(offer));
} catch {}
</script>`,
    `<link rel="prefetch" href="${c9}/prefetch"><link rel="stylesheet" href="${c9}/style.css">`,
  );
}

beforeAll(async () => {
  dns = await startDnsServer((name, type, n) => {
    if (type !== "A") return [];
    if (name === "canary.test") return ["127.0.0.9"];
    if (name === "private.test") return ["10.0.0.1"];
    if (name === "rebind.test") return n === 1 ? ["127.0.0.2"] : ["127.0.0.9"];
    return "nxdomain";
  });
  canary9 = await startOrigin("127.0.0.9", send(200, "text/plain", "canary"));
  canary1 = await startOrigin("127.0.0.1", send(200, "text/plain", "canary"));
  udpCanary = dgram.createSocket("udp4");
  udpCanary.on("message", () => udpPackets++);
  await new Promise<void>((resolve) => udpCanary.bind(canary9.port, "127.0.0.9", resolve));
  origin = await startOrigin(
    "127.0.0.2",
    routes({
      "/api.html": send(200, "text/html", page(`<div id="root"></div><script>fetch("/api/article").then((r) => r.json()).then((d) => { document.getElementById("root").innerHTML = "<article><h1>From the API</h1><p>" + d.text + "</p></article>"; });</script>`)),
      "/api/article": send(200, "application/json", JSON.stringify({ text: ARTICLE })),
      "/timer.html": send(200, "text/html", page(`<div id="root"></div><script>setTimeout(() => { document.getElementById("root").innerHTML = "<article><p>${ARTICLE}</p></article>"; }, 300);</script>`)),
      "/shadow.html": send(200, "text/html", page(`<x-card><span slot="s">slotted words</span></x-card><script>customElements.define("x-card", class extends HTMLElement { constructor() { super(); this.attachShadow({ mode: "open" }).innerHTML = "<article><p>${ARTICLE} Shadow text.</p><slot name='s'></slot></article>"; } });</script>`)),
      "/iframe.html": send(200, "text/html", page(`<iframe src="/frame-article.html"></iframe>`)),
      "/short-static.html": send(200, "text/html", "<!doctype html><html><head><title>Note</title></head><body><p>A short static note.</p></body></html>"),
      "/frame-article.html": send(200, "text/html", `<!doctype html><html><body><article><p>${ARTICLE} Framed text.</p></article></body></html>`),
      "/poll.html": send(200, "text/html", page(`<div id="root"><article><p>${ARTICLE}</p></article></div><p id="n"></p><script>let n = 0; setInterval(() => fetch("/api/article").then(() => { document.getElementById("n").textContent = "tick " + ++n; }), 50);</script>`)),
      "/hostile.html": (req, res) => send(200, "text/html", hostilePage())(req, res, ""),
      "/leave.html": (req, res) => send(200, "text/html", page(`<p>Leaving</p><script>setTimeout(() => { location = "http://127.0.0.9:${canary9.port}/location"; }, 50);</script>`, `<meta http-equiv="refresh" content="0;url=http://127.0.0.9:${canary9.port}/refresh">`))(req, res, ""),
      "/to-canary": (req, res) => send(302, "text/plain", "", { location: `http://127.0.0.9:${canary9.port}/redirected` })(req, res, ""),
      "/redirecting.html": send(200, "text/html", page(`<div id="root"></div><script>fetch("/to-canary").catch(() => {}).finally(() => { document.getElementById("root").innerHTML = "<article><p>${ARTICLE}</p></article>"; });</script>`)),
    }),
  );
  const egress = egressDeps(dns);
  renderer = createRenderer({ ...RENDER_SETTINGS, browserPath: browserPathFrom(process.env) }, { ...egress, connectTunnel: loopbackTunnel });
  deps = { ...egress, limiter: createHostLimiter({ maxConcurrent: 8, maxPerHost: 8, maxQueue: 8 }), renderer };
}, 30_000);

afterAll(async () => {
  await renderer.close();
  udpCanary.close();
  await Promise.all([origin.close(), canary9.close(), canary1.close(), dns.close(), deps.dispatchers.close()]);
});

describe("rendering script-built pages", () => {
  it("finds a browser on this machine (Debian's chromium; .ci/run installs it)", () => {
    expect(renderer.available).toBe(true);
  });

  it.each([
    ["/api.html", "text from a same-origin JSON API"],
    ["/timer.html", "text written after a 300 ms timer"],
    ["/shadow.html", "text in an open shadow root"],
    ["/iframe.html", "a same-origin iframe's article"],
  ])("renders %s (%s) with always and auto, and not with never", async (path) => {
    for (const mode of ["always", "auto"] as const) {
      const r = await run(path, mode);
      expect(r.ok && r.value.content, `${path} ${mode}`).toContain("lighthouses keep ships");
      expect(r.ok && r.value.metadata?.rendered).toBe(true);
    }
    const never = await run(path, "never");
    expect(never.ok && never.value.content).not.toContain("lighthouses keep ships");
    expect(never.ok && never.value.metadata?.rendered).toBeUndefined();
  });

  it("leaves a short page without scripts to the static read under auto: rendering cannot add to it", async () => {
    const r = await run("/short-static.html", "auto");
    expect(r.ok && r.value.content).toContain("A short static note.");
    expect(r.ok && r.value.metadata?.rendered).toBeUndefined();
    const always = await run("/short-static.html", "always");
    expect(always.ok && always.value.metadata?.rendered).toBe(true);
  });

  it("keeps slotted light-DOM content in a flattened shadow root", async () => {
    const r = await run("/shadow.html", "always");
    expect(r.ok && r.value.content).toContain("Shadow text.");
    expect(r.ok && r.value.content).toContain("slotted words");
  });

  it("returns a page that never stops polling within its deadline", async () => {
    const started = Date.now();
    const r = await run("/poll.html", "always", { budgetMs: 4_000 });
    expect(Date.now() - started).toBeLessThan(4_500);
    expect(r.ok && r.value.content).toContain("lighthouses keep ships");
  });

  it("without a browser: auto reads the HTML as served, always says how to install one", async () => {
    const none = createRenderer({ ...RENDER_SETTINGS, browserPath: undefined }, egressDeps(dns));
    const auto = await run("/api.html", "auto", { deps: { ...deps, renderer: none } });
    expect(auto.ok && auto.value.metadata?.rendered).toBeUndefined();
    const always = await run("/api.html", "always", { deps: { ...deps, renderer: none } });
    expect(always).toMatchObject({ ok: false, error: { code: "CONTENT_FETCH_FAILED" } });
    expect(!always.ok && always.error.message).toMatch(/apt-get install chromium|SIDECAR_BROWSER_PATH/);
  });
});

describe("a hostile page", () => {
  it("renders its public part while no canary sees a single request", async () => {
    const r = await run("/hostile.html", "always");
    expect(r.ok && r.value.content).toContain("lighthouses keep ships");
    const l = await run("/leave.html", "always");
    expect(l.ok || l.error.code).toBeTruthy();
    const redirected = await run("/redirecting.html", "always");
    expect(redirected.ok && redirected.value.content).toContain("lighthouses keep ships");
    expect(canary9.connections.length + canary9.requests.length).toBe(0);
    expect(canary1.connections.length + canary1.requests.length).toBe(0);
    expect(udpPackets).toBe(0);
    // The origin's own requests did reach it: the page was not simply cut off.
    expect(origin.requests.some((q) => q.url === "/to-canary")).toBe(true);
    expect(renderer.stats().refused).toBeGreaterThan(0);
  });

  it("is held to web.render.maxRequests", async () => {
    const r = await run("/poll.html", "always", { budgetMs: 4_000, options: { renderMaxRequests: 5 } });
    expect(r.ok && r.value.content).toContain("lighthouses keep ships");
    const polled = origin.requests.filter((q) => q.url === "/api/article").length;
    const before = polled;
    await run("/poll.html", "always", { budgetMs: 3_000, options: { renderMaxRequests: 3 } });
    // The document and at most two polls came through.
    expect(origin.requests.filter((q) => q.url === "/api/article").length - before).toBeLessThanOrEqual(2);
  });
});

describe("the egress proxy itself", () => {
  it("answers 407 to a client without a session's credentials", async () => {
    const { startEgressProxy } = await import("../src/render/egress-proxy.ts");
    const proxy = await startEgressProxy(egressDeps(dns));
    const url = new URL(proxy.url);
    const status = await new Promise<number>((resolve, reject) => {
      http.get({ host: url.hostname, port: url.port, path: `${origin.url}/api/article` }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      }).on("error", reject);
    });
    expect(status).toBe(407);
    const opened = proxy.open({ policy: { allowPrivateNetwork: false, allowHosts: ["127.0.0.2"] }, maxRequests: 5, maxBytes: 10_000 });
    if (!opened.ok) throw new Error(opened.error.message);
    const auth = `Basic ${Buffer.from(`${opened.value.username}:${opened.value.password}`).toString("base64")}`;
    const get = (target: string) =>
      new Promise<number>((resolve, reject) => {
        http.get({ host: url.hostname, port: url.port, path: target, headers: { "proxy-authorization": auth } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        }).on("error", reject);
      });
    expect(await get(`${origin.url}/api/article`)).toBe(200);
    expect(await get(`http://127.0.0.9:${canary9.port}/direct`)).toBe(403);
    expect(opened.value.refused).toBe(1);
    opened.value.close();
    expect(await get(`${origin.url}/api/article`)).toBe(407);
    await proxy.close();
    expect(canary9.requests).toHaveLength(0);
  });
});
