import dgram from "node:dgram";
import http from "node:http";
import { connect as netConnect } from "node:net";
import { createHostLimiter, deadlineFrom, DEFAULT_WEB_CONFIG, fetchOptionsFrom, type FetchOptions, type RenderMode } from "@edge-web/shared";
import { chromium } from "playwright-core";
import { connect as tlsConnect } from "node:tls";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { send, startOrigin, routes, type Origin } from "../../test-support/origin.ts";
import type { FetchContentDeps } from "../src/fetch/egress-types.ts";
import { fetchContent } from "../src/fetch/fetch-content.ts";
import { extractContent } from "../src/extract/extract-content.ts";
import { scriptBuiltSignals } from "../src/fetch/script-built-signals.ts";
import { browserPathFrom, createRenderer } from "../src/render/create-renderer.ts";
import type { Renderer, RenderingDeps } from "../src/fetch/renderer.ts";
import { startDnsServer, type DnsServer } from "./support/dns-server.ts";
import { egressDeps, USER_AGENT } from "./support/egress.ts";
import { selfSignedCert } from "./support/tls.ts";
import { waitFor } from "../../test-support/wait-for.ts";
import { processTreeRssBytes } from "../src/render/process-tree-rss.ts";
import { startEgressProxy, type EgressProxy, type TunnelConnector } from "../src/render/egress-proxy.ts";
import { renderPage } from "../src/render/render-page.ts";

/**
 * Where the HTTPS origin on port 443 listens: a loopback address of its own for each run, since a
 * port is fixed and other runs of this file (another checkout's) may be listening at the same time.
 */
const DEFAULT_PORT_HOST = `127.43.${1 + Math.floor(Math.random() * 254)}.${1 + Math.floor(Math.random() * 254)}`;
const RENDER_SETTINGS = { concurrency: 2, maxQueue: 8, maxPages: 100, maxRssBytes: 4 * 1024 ** 3 };
const SCRIPTS = "<script>var a=1;</script>".repeat(4);
const page = (body: string, head = "") => `<!doctype html><html><head><title>Fixture</title>${SCRIPTS}${head}</head><body>${body}</body></html>`;
const ARTICLE = "The rendered article explains how lighthouses keep ships away from rocks at night, paragraph after paragraph.";

/** 16 MiB of spaces in about 16 KB of gzip: small on the wire, a thousandfold once decoded. */
const BOMB = gzipSync(Buffer.alloc(16 * 1024 * 1024, 32));
/** Changes the DOM every 100 ms until `bombRead()` is called, so the page is not taken as settled before the bomb is read. */
const UNTIL_READ = `const tick = setInterval(() => { document.getElementById("got").dataset.tick = Date.now(); }, 100);
const bombRead = (text) => { clearInterval(tick); document.getElementById("got").textContent = text; parent.postMessage("bomb-read", "*"); };`;
/** A page whose article is served as it is, and whose script reads the bomb and says how much it got (and tells a parent frame). */
const BOMB_READER = page(`<article><p>${ARTICLE}</p><p id="got"></p></article><script>${UNTIL_READ}
fetch("/bomb").then((r) => r.arrayBuffer()).then((b) => bombRead("Bomb read: " + b.byteLength + " bytes"), () => bombRead("Bomb not read"));</script>`);
/** A document that is the bomb itself: its article, 16 MiB of spaces, its last paragraph, gzipped. */
const BOMB_DOCUMENT = gzipSync(Buffer.concat([Buffer.from(page(`<article><p>${ARTICLE}</p></article>`).replace("</body></html>", "")), Buffer.alloc(16 * 1024 * 1024, 32), Buffer.from("<p>Bomb document end.</p></body></html>")]));
/** The bomb's routes, on every origin that serves them. */
const bombRoutes = {
  "/bomb": send(200, "application/octet-stream", BOMB, { "content-encoding": "gzip" }),
  "/bomb-reader.html": send(200, "text/html", BOMB_READER),
  // The same read in a dedicated worker, and in a frame of another site (its own renderer process).
  "/bomb-worker.html": send(200, "text/html", page(`<article><p>${ARTICLE}</p><p id="got"></p></article><script>${UNTIL_READ}
const worker = new Worker("/bomb-worker.js");
worker.onmessage = (e) => bombRead("Bomb read: " + e.data + " bytes");
worker.onerror = () => bombRead("Bomb not read");</script>`)),
  "/bomb-worker.js": send(200, "text/javascript", `fetch("/bomb").then((r) => r.arrayBuffer()).then((b) => postMessage(b.byteLength), () => postMessage(0));`),
  "/bomb-frame.html": send(200, "text/html", page(`<article><p>${ARTICLE}</p><p id="got"></p></article><iframe src="https://${DEFAULT_PORT_HOST}/bomb-reader.html"></iframe><script>${UNTIL_READ}
addEventListener("message", (e) => e.data === "bomb-read" && e.source !== window && bombRead("The frame read the bomb"));</script>`)),
  "/bomb.html": send(200, "text/html", BOMB_DOCUMENT, { "content-encoding": "gzip" }),
};

/** Only loopback, ever: a tunnel to anything else is a test failure, not a connection. */
const loopbackTunnel: TunnelConnector = (vetted, port) => {
  if (!vetted.address.startsWith("127.") && vetted.address !== "::1") throw new Error(`test guard: refusing to tunnel to ${vetted.address}`);
  return netConnect({ host: vetted.address, port });
};

let dns: DnsServer;
let origin: Origin;
let canary9: Origin;
let canary1: Origin;
let secure: Origin;
let cert: { key: string; cert: string };
/** An HTTPS origin on port 443, the port a URL leaves out, with a certificate the test browser is told to trust. */
let defaultPort: Origin;
let defaultPortCert: ReturnType<typeof selfSignedCert>;
let udpCanary: dgram.Socket;
let udpPackets = 0;
let renderer: Renderer;
let deps: FetchContentDeps & RenderingDeps;

const options = (over: Partial<FetchOptions> = {}): FetchOptions => ({ ...fetchOptionsFrom(DEFAULT_WEB_CONFIG), allowHosts: ["127.0.0.2"], timeoutMs: 8_000, ...over });
const run = (path: string, render: RenderMode, over: { budgetMs?: number; deps?: FetchContentDeps & RenderingDeps; options?: Partial<FetchOptions>; sessionKey?: string } = {}) =>
  fetchContent(
    { url: `${origin.url}${path}`, preferReader: false, render, options: options(over.options), ...(over.budgetMs && { budgetMs: over.budgetMs }), ...(over.sessionKey && { sessionKey: over.sessionKey }) },
    over.deps ?? deps,
  );

function hostilePage(): string {
  const c9 = `http://127.0.0.9:${canary9.port}`;
  const c1port = canary1.port;
  const targets = [
    `${c9}/fetch?token=SECRET-TOKEN-1`,
    `http://canary.test:${canary9.port}/dns`,
    `http://private.test:${canary9.port}/private`,
    `http://localhost:${c1port}/localhost`,
    `http://a.localhost:${c1port}/sub-localhost`,
    `http://[::ffff:127.0.0.1]:${c1port}/mapped`,
    `http://2130706433:${c1port}/decimal`,
    `http://0177.0.0.1:${c1port}/octal`,
    `http://0x7f.0.0.1:${c1port}/hex`,
    `http://127.1:${c1port}/short`,
    `http://canary.test.:${canary9.port}/trailing-dot`,
    `http://rebind.test:${canary9.port}/rebind`,
    `https://127.0.0.9:${canary9.port}/tls`,
  ];
  return page(
    `<div id="root"></div>
<img src="${c9}/img"><iframe src="${c9}/iframe"></iframe><iframe src="file:///etc/passwd"></iframe>
<iframe name="sink" style="display:none"></iframe><iframe src="/to-canary"></iframe>
<form id="f" method="post" action="${c9}/form" target="sink"><input name="x" value="1"></form>
<script>
document.getElementById("root").innerHTML = "<article><h1>Public part</h1><p>${ARTICLE}</p></article>";
for (const url of ${JSON.stringify(targets)}) fetch(url).catch(() => {});
const xhr = new XMLHttpRequest(); xhr.open("GET", "${c9}/xhr"); xhr.send();
navigator.sendBeacon("${c9}/beacon", "data");
try { new WebSocket("ws://127.0.0.9:${canary9.port}/ws"); } catch {}
try { new WebSocket("wss://canary.test:${canary9.port}/wss"); } catch {}
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

/** A page with its article that moves on to `target` once it has loaded. */
const movingOn = (target: string) => page(`<article><p>${ARTICLE}</p></article><script>addEventListener("load", () => setTimeout(() => { location = ${JSON.stringify(target)}; }, 50));</script>`);

/** One shell for every path: its script reads location.pathname and writes that page's article (client-side routing). */
const routedDocs = page(`<div id="root"></div><script>
const docs = { "/docs/a": "Page A is about anchors and the chains that hold them.", "/docs/b": "Page B is about buoys and the lights they carry at sea." };
document.getElementById("root").innerHTML = "<article><h1>Docs</h1><p>" + (docs[location.pathname] ?? "Not found") + " ${ARTICLE}</p></article>";
</script>`);

/** An app shell: a header and footer of static text around `mount`, and one script filling #root; the served HTML's text is over 200 characters. */
const appShell = (mount: string) => `<!doctype html><html><head><title>Shell</title></head><body>
<div class="intro"><p>${"The harbour guide: tides, charts, moorings and the harbour master's notices for every visitor. ".repeat(3)}</p></div>
${mount}<footer>Harbour guide, all rights reserved.</footer>
<script>const mount = document.getElementById("root") ?? document.getElementById("content"); mount.innerHTML = "<article><h1>Shell app</h1>${[1, 2, 3, 4].map((n) => `<p>Part ${n}. ${ARTICLE}</p>`).join("")}</article>";</script></body></html>`;

beforeAll(async () => {
  dns = await startDnsServer((name, type, n) => {
    if (type !== "A") return [];
    if (name === "canary.test") return ["127.0.0.9"];
    if (name === "private.test") return ["10.0.0.1"];
    if (name === "rebind.test") return n === 1 ? ["127.0.0.2"] : ["127.0.0.9"];
    if (name === "secure.test") return ["127.0.0.2"];
    if (name === "default-port.test") return [DEFAULT_PORT_HOST];
    if (name === "site.test") return ["127.0.0.2"];
    return "nxdomain";
  });
  canary9 = await startOrigin("127.0.0.9", send(200, "text/plain", "canary"));
  canary1 = await startOrigin("127.0.0.1", send(200, "text/plain", "canary"));
  cert = selfSignedCert("secure.test");
  secure = await startOrigin("127.0.0.2", send(200, "text/plain", "secure origin"), { tls: cert });
  defaultPortCert = selfSignedCert("default-port.test");
  defaultPort = await startOrigin(
    DEFAULT_PORT_HOST,
    routes({
      "/app.html": send(200, "text/html", page(`<div id="root"></div><script>document.getElementById("root").innerHTML = "<article><p>${ARTICLE} Over TLS on port 443.</p></article>";</script>`)),
      ...bombRoutes,
    }),
    { port: 443, tls: defaultPortCert },
  );
  udpCanary = dgram.createSocket("udp4");
  udpCanary.on("message", () => udpPackets++);
  await new Promise<void>((resolve) => udpCanary.bind(canary9.port, "127.0.0.9", resolve));
  origin = await startOrigin(
    "127.0.0.2",
    routes({
      "/api.html": send(200, "text/html", page(`<div id="root"></div><script>fetch("/api/article").then((r) => r.json()).then((d) => { document.getElementById("root").innerHTML = "<article><h1>From the API</h1><p>" + d.text + "</p></article>"; });</script>`)),
      "/api/article": send(200, "application/json", JSON.stringify({ text: ARTICLE })),
      "/timer.html": send(200, "text/html", page(`<div id="root"></div><script>setTimeout(() => { document.getElementById("root").innerHTML = "<article><p>${ARTICLE}</p></article>"; }, 300);</script>`)),
      // Filled after more than QUIET_MS of quiet: a shell's timer run late on a loaded machine.
      "/late.html": send(200, "text/html", page(`<div id="root"></div><script>setTimeout(() => { document.getElementById("root").innerHTML = "<article><p>${ARTICLE}</p></article>"; }, 1_200);</script>`)),
      "/shadow.html": send(200, "text/html", page(`<x-card><span slot="s">slotted words</span></x-card><script>customElements.define("x-card", class extends HTMLElement { constructor() { super(); this.attachShadow({ mode: "open" }).innerHTML = "<article><p>${ARTICLE} Shadow text.</p><slot name='s'></slot></article>"; } });</script>`)),
      "/iframe.html": send(200, "text/html", page(`<iframe src="/frame-article.html"></iframe>`)),
      "/docs/a": send(200, "text/html", routedDocs),
      "/docs/b": send(200, "text/html", routedDocs),
      "/shell.html": send(200, "text/html", appShell(`<div id="root"></div>`)),
      "/noscript-shell.html": send(200, "text/html", appShell(`<main id="content"></main><noscript>You need to enable JavaScript to run this app.</noscript>`)),
      "/blog-with-widget.html": send(200, "text/html", `<!doctype html><html><head><title>Blog</title><script src="/widget.js"></script></head><body><article>${Array.from({ length: 12 }, (_, i) => `<p>Paragraph ${i + 1}. ${ARTICLE}</p>`).join("")}</article><div id="comments"></div><noscript>Please enable JavaScript to view the comments.</noscript></body></html>`),
      "/widget.js": send(200, "text/javascript", `document.getElementById("comments").textContent = "Comments";`),
      "/scroll.html": send(200, "text/html", page(`<div id="feed"></div><script>let n = 0; const more = () => { const p = document.createElement("p"); p.textContent = "Feed item " + ++n + ": ${ARTICLE}"; document.getElementById("feed").append(p); }; for (let i = 0; i < 5; i++) more(); addEventListener("scroll", () => { for (let i = 0; i < 50; i++) more(); }); setInterval(() => { for (let i = 0; i < 50; i++) more(); scrollTo(0, document.body.scrollHeight); }, 20);</script>`)),
      "/flood.html": send(200, "text/html", page(`<div id="root"><article><p>${ARTICLE}</p></article></div><script>for (let i = 0; i < 10000; i++) { fetch("/api/article?" + i).catch(() => {}); new Image().src = "/pixel?" + i; }</script>`)),
      "/hog.html": send(200, "text/html", page(`<div id="root"><article><p>${ARTICLE}</p></article></div><p id="held"></p><script>const keep = []; setInterval(() => { for (let i = 0; i < 20; i++) keep.push(new Array(250000).fill(keep.length + i + 0.5)); document.getElementById("held").textContent = keep.length + " arrays held"; }, 5);</script>`)),
      // 32 MB ArrayBuffers (memory outside V8's heap) written every 50 ms, up to 2 GB; its article is in the served HTML.
      "/buffers.html": send(200, "text/html", page(`<article><p>${ARTICLE}</p></article><p id="held"></p><script>const keep = []; const grow = setInterval(() => { const b = new Uint8Array(32 * 1024 * 1024); b.fill(1); keep.push(b); document.getElementById("held").textContent = keep.length * 32 + " MB held"; if (keep.length === 64) clearInterval(grow); }, 50);</script>`)),
      ...bombRoutes,
      "/shared-worker.html": send(200, "text/html", page(`<div id="root"></div><script>document.getElementById("root").innerHTML = "<article><p>${ARTICLE} Shared workers: " + typeof SharedWorker + ".</p></article>";</script>`)),
      // Its script never ends: the page never loads, and holds its render slot until its deadline.
      "/busy.html": send(200, "text/html", page(`<article><p>${ARTICLE}</p></article><script>for (;;) {}</script>`)),
      "/short-static.html": send(200, "text/html", "<!doctype html><html><head><title>Note</title></head><body><p>A short static note.</p></body></html>"),
      "/frame-article.html": send(200, "text/html", `<!doctype html><html><body><article><p>${ARTICLE} Framed text.</p></article></body></html>`),
      "/poll.html": send(200, "text/html", page(`<div id="root"><article><p>${ARTICLE}</p></article></div><p id="n"></p><script>let n = 0; setInterval(() => fetch("/api/article").then(() => { document.getElementById("n").textContent = "tick " + ++n; }), 50);</script>`)),
      "/hostile.html": (req, res) => send(200, "text/html", hostilePage())(req, res, ""),
      "/leave.html": (req, res) => send(200, "text/html", page(`<p>Leaving</p><script>setTimeout(() => { location = "http://127.0.0.9:${canary9.port}/location"; }, 50);</script>`, `<meta http-equiv="refresh" content="0;url=http://127.0.0.9:${canary9.port}/refresh">`))(req, res, ""),
      // Served with their article, then they move on once loaded: to a canary, over TLS to a canary, to an allowed host's closed port, to another page of this origin.
      "/leave-now.html": (req, res) => send(200, "text/html", movingOn(`http://127.0.0.9:${canary9.port}/download`))(req, res, ""),
      "/leave-tls.html": (req, res) => send(200, "text/html", movingOn(`https://127.0.0.9:${canary9.port}/download`))(req, res, ""),
      "/leave-unreachable.html": send(200, "text/html", movingOn("http://127.0.0.2:9/gone")),
      "/move-on.html": send(200, "text/html", movingOn("/api.html")),
      "/to-canary": (req, res) => send(302, "text/plain", "", { location: `http://127.0.0.9:${canary9.port}/redirected` })(req, res, ""),
      "/redirecting.html": send(200, "text/html", page(`<div id="root"></div><script>fetch("/to-canary").catch(() => {}).finally(() => { document.getElementById("root").innerHTML = "<article><p>${ARTICLE}</p></article>"; });</script>`)),
    }),
  );
  const egress = egressDeps(dns);
  renderer = createRenderer({ ...RENDER_SETTINGS, browserPath: browserPathFrom(process.env), trustedTestSpki: [defaultPortCert.spki] }, { ...egress, connectTunnel: loopbackTunnel });
  deps = { ...egress, limiter: createHostLimiter({ maxConcurrent: 8, maxPerHost: 8, maxQueue: 8 }), renderer };
}, 30_000);

afterAll(async () => {
  await renderer.close();
  udpCanary.close();
  await Promise.all([origin.close(), secure.close(), defaultPort.close(), canary9.close(), canary1.close(), dns.close(), deps.dispatchers.close()]);
});

describe("rendering script-built pages", () => {
  it("finds a browser on this machine (Debian's chromium; .ci/run installs it)", () => {
    expect(renderer.available).toBe(true);
  });

  it.each([
    ["/api.html", "text from a same-origin JSON API"],
    ["/timer.html", "text written after a 300 ms timer"],
    ["/late.html", "text written after a 1.2 s timer into a page that showed no text"],
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

  it("renders an https page on port 443, the port its URL leaves out (the browser's CONNECT names it)", async () => {
    const egress = egressDeps(dns, { ca: defaultPortCert.cert });
    try {
      const r = await fetchContent(
        { url: "https://default-port.test/app.html", preferReader: false, render: "always", options: options({ allowHosts: [DEFAULT_PORT_HOST] }) },
        { ...egress, limiter: deps.limiter, renderer },
      );
      expect(r.ok && r.value.content, JSON.stringify(r)).toContain("Over TLS on port 443.");
      expect(r.ok && r.value.metadata?.rendered).toBe(true);
      // The static read and the browser's document both reached the origin.
      expect(defaultPort.requests.filter((q) => q.url === "/app.html")).toHaveLength(2);
    } finally {
      await egress.dispatchers.close();
    }
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
    // Its refresh and its script both send it to the canary: the move is refused, and so is the page.
    expect(l).toMatchObject({ ok: false, error: { code: "CONTENT_FETCH_FAILED", message: expect.stringContaining(`moved on to http://127.0.0.9:${canary9.port}`), details: { fault: "policy" } } });
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

describe("where a rendered page ends", () => {
  it("is in metadata when the network policy let it go there; the result's url is the one asked for", async () => {
    const r = await run("/move-on.html", "always");
    expect(r.ok && r.value.url).toBe(`${origin.url}/move-on.html`);
    expect(r.ok && r.value.metadata?.finalUrl).toBe(`${origin.url}/api.html`);
    // /api.html's article, written from its API.
    expect(r.ok && r.value.content).toContain("From the API");
  });

  it.each([
    ["a URL the network policy refuses", "/leave-now.html", "policy"],
    ["an https URL whose tunnel the network policy refuses", "/leave-tls.html", "upstream"],
    ["an allowed host that cannot be reached", "/leave-unreachable.html", "upstream"],
  ])("fails a page that moves on to %s under always; auto keeps the static read at the URL asked for", async (_what, path, fault) => {
    const always = await run(path, "always");
    expect(always).toMatchObject({ ok: false, error: { code: "CONTENT_FETCH_FAILED", message: expect.stringMatching(/moved on to/), details: { fault } } });
    const auto = await run(path, "auto");
    expect(auto.ok && auto.value).toMatchObject({ url: `${origin.url}${path}`, content: expect.stringContaining("lighthouses keep ships") });
    expect(auto.ok && auto.value.metadata?.finalUrl).toBeUndefined();
    expect(auto.ok && auto.value.metadata?.rendered).toBeUndefined();
    expect(canary9.connections.length + canary9.requests.length).toBe(0);
  });
});

describe("the browser's proxy settings", () => {
  it("send loopback through the proxy even when the environment asks Playwright not to", async () => {
    // On 127.0.0.1, the one address the browser resolves itself (the proxy's own): bypassed, a page could reach it directly.
    const canary = await startOrigin("127.0.0.1", send(200, "text/plain", "canary"));
    const site = await startOrigin(
      "127.0.0.2",
      routes({ "/page.html": send(200, "text/html", page(`<div id="root"></div><script>fetch("http://127.0.0.1:${canary.port}/direct").catch(() => {}).finally(() => { document.getElementById("root").innerHTML = "<article><p>${ARTICLE}</p></article>"; });</script>`)) }),
    );
    // Playwright reads this at launch: set, it leaves loopback to Chromium's default, which bypasses the proxy.
    const saved = process.env.PLAYWRIGHT_DISABLE_FORCED_CHROMIUM_PROXIED_LOOPBACK;
    process.env.PLAYWRIGHT_DISABLE_FORCED_CHROMIUM_PROXIED_LOOPBACK = "1";
    const own = createRenderer({ ...RENDER_SETTINGS, browserPath: browserPathFrom(process.env) }, { ...egressDeps(dns), connectTunnel: loopbackTunnel });
    try {
      // A name the proxy resolves to the site, so the page itself is proxied either way.
      const r = await fetchContent({ url: `http://site.test:${site.port}/page.html`, preferReader: false, render: "always", options: options() }, { ...deps, renderer: own });
      expect(r.ok && r.value.content, JSON.stringify(r)).toContain("lighthouses keep ships");
      // The document and the canary's fetch both reached the proxy, which refused the fetch.
      expect(r.ok && r.render).toMatchObject({ requests: 2, refused: 1 });
      expect(canary.connections.length + canary.requests.length).toBe(0);
    } finally {
      if (saved === undefined) delete process.env.PLAYWRIGHT_DISABLE_FORCED_CHROMIUM_PROXIED_LOOPBACK;
      else process.env.PLAYWRIGHT_DISABLE_FORCED_CHROMIUM_PROXIED_LOOPBACK = saved;
      await own.close();
      await Promise.all([site.close(), canary.close()]);
    }
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

  it("holds a session to its response bytes: past them the response is cut and later requests are refused", async () => {
    const { startEgressProxy } = await import("../src/render/egress-proxy.ts");
    const proxy = await startEgressProxy(egressDeps(dns));
    const url = new URL(proxy.url);
    const opened = proxy.open({ policy: { allowPrivateNetwork: false, allowHosts: ["127.0.0.2"] }, maxRequests: 10, maxBytes: 50 });
    if (!opened.ok) throw new Error(opened.error.message);
    const auth = `Basic ${Buffer.from(`${opened.value.username}:${opened.value.password}`).toString("base64")}`;
    const get = (target: string) =>
      new Promise<number>((resolve) => {
        http
          .get({ host: url.hostname, port: url.port, path: target, headers: { "proxy-authorization": auth } }, (res) => {
            res.resume();
            res.on("close", () => resolve(res.statusCode ?? 0));
          })
          .on("error", () => resolve(0));
      });
    // The article's JSON is longer than 50 bytes.
    await get(`${origin.url}/api/article`);
    expect(opened.value.refused).toBe(1);
    expect(opened.value.refusals[0]?.reason).toMatch(/more than 50 response bytes \(web\.maxResponseBytes\)/);
    expect(await get(`${origin.url}/api/article`)).toBe(403);
    expect(opened.value.refused).toBe(2);
    opened.value.close();
    await proxy.close();
  });
});

describe("a page's context", () => {
  it("closes the page's proxy session when the browser cannot open a context for it", async () => {
    const proxy = await startEgressProxy(egressDeps(dns));
    const browser = await chromium.launch({ executablePath: browserPathFrom(process.env)!, headless: true, chromiumSandbox: process.getuid?.() !== 0 });
    await browser.close();
    // The real proxy, with the sessions it opens kept aside to try their credentials afterwards.
    const sessions: { username: string; password: string }[] = [];
    const watched: EgressProxy = {
      url: proxy.url,
      close: () => proxy.close(),
      open(limits) {
        const opened = proxy.open(limits);
        if (opened.ok) sessions.push(opened.value);
        return opened;
      },
    };
    const req = { url: `${origin.url}/api.html`, policy: { allowPrivateNetwork: false, allowHosts: ["127.0.0.2"] }, maxRequests: 5, maxBytes: 10_000, deadline: deadlineFrom(Date.now(), 5_000), userAgent: USER_AGENT };
    await expect(renderPage(browser, watched, req)).rejects.toThrow();
    expect(sessions).toHaveLength(1);
    const url = new URL(proxy.url);
    const auth = `Basic ${Buffer.from(`${sessions[0]!.username}:${sessions[0]!.password}`).toString("base64")}`;
    const status = await new Promise<number>((resolve, reject) => {
      http.get({ host: url.hostname, port: url.port, path: `${origin.url}/api/article`, headers: { "proxy-authorization": auth } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      }).on("error", reject);
    });
    expect(status).toBe(407);
    await proxy.close();
  });
});

describe("render auto's signals", () => {
  const served = async (path: string) => (await (await fetch(`${origin.url}${path}`)).text());

  it.each([
    ["/shell.html", "empty-app-root"],
    ["/noscript-shell.html", "noscript-asks-for-js"],
  ])("renders %s, whose only sign of a script-built page is %s", async (path, signal) => {
    const html = await served(path);
    const extracted = extractContent("html", { text: html, url: `${origin.url}${path}`, mime: "text/html" });
    // Over 200 characters of text and one script: neither short-html nor js-heavy-html.
    expect([...scriptBuiltSignals(extracted)]).toEqual([signal]);
    const never = await run(path, "never");
    expect(never.ok && never.value.content).not.toContain("lighthouses keep ships");
    const auto = await run(path, "auto");
    expect(auto.ok && auto.value.content).toContain("lighthouses keep ships");
    expect(auto.ok && auto.value.metadata?.rendered).toBe(true);
  });

  it("reads a long article as served though its comments widget asks for JavaScript in a <noscript>", async () => {
    const r = await run("/blog-with-widget.html", "auto");
    expect(r.ok && r.value.content).toContain("lighthouses keep ships");
    expect(r.ok && r.value.metadata?.rendered).toBeUndefined();
  });

  it("routes on the client: /docs/b gets b's article, /docs/a a's", async () => {
    const b = await run("/docs/b", "auto");
    expect(b.ok && b.value.content).toContain("Page B is about buoys");
    expect(b.ok && b.value.content).not.toContain("Page A");
    const a = await run("/docs/a", "always");
    expect(a.ok && a.value.content).toContain("Page A is about anchors");
  });
});

describe("pages that never end", () => {
  it("takes an infinite-scroll page as it is at its deadline, its text bounded", async () => {
    const started = Date.now();
    const r = await run("/scroll.html", "always", { budgetMs: 4_000, options: { maxContentChars: 20_000 } });
    expect(Date.now() - started).toBeLessThan(6_000);
    expect(r.ok && r.value.content).toContain("Feed item 1:");
    expect(r.ok && r.value.content.length).toBeLessThanOrEqual(20_000);
    expect(r.ok && r.value.truncated).toBe(true);
  });

  it("holds a page opening 10,000 requests to web.render.maxRequests and its deadline; the next render succeeds", async () => {
    const before = origin.requests.length;
    const started = Date.now();
    const r = await run("/flood.html", "always", { budgetMs: 6_000 });
    expect(Date.now() - started).toBeLessThan(8_000);
    // Intercepting 20,000 requests may keep the page from loading in time, and 10,000 pending requests may take its renderer past one page's memory cap: then it is a clean timeout or a stopped renderer, never a hang.
    if (r.ok) expect(r.value.content).toContain("lighthouses keep ships");
    else if (r.error.code === "CONTENT_FETCH_FAILED") expect(r.error.message).toMatch(/renderer crashed.*memory/);
    else expect(r.error.code).toBe("CONTENT_FETCH_TIMEOUT");
    // The static read, the document again in the browser, and the API calls up to the cap (images are never fetched).
    expect(origin.requests.length - before).toBeLessThanOrEqual(1 + DEFAULT_WEB_CONFIG.render.maxRequests);
    expect(origin.requests.slice(before).some((q) => q.url.startsWith("/pixel"))).toBe(false);
    const next = await run("/api.html", "always");
    expect(next.ok && next.value.content).toContain("lighthouses keep ships");
  });

  it("fails a page that allocates without bound cleanly within its deadline, and renders the next page", async () => {
    const started = Date.now();
    const r = await run("/hog.html", "always", { budgetMs: 8_000 });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(r).toMatchObject({ ok: false, error: { code: "CONTENT_FETCH_FAILED" } });
    expect(!r.ok && r.error.message).toMatch(/crashed/);
    const auto = await run("/hog.html", "auto", { budgetMs: 8_000 });
    // Under auto the static read stands (the article is in the served HTML).
    expect(auto.ok && auto.value.content).toContain("lighthouses keep ships");
    expect(auto.ok && auto.value.metadata?.rendered).toBeUndefined();
    const next = await run("/timer.html", "always");
    expect(next.ok && next.value.content).toContain("lighthouses keep ships");
  });
});

describe("a page's memory and received bytes", () => {
  it("stops a page whose ArrayBuffers (memory V8's heap cap does not hold) pass one page's cap: a coded failure, the static read under auto, the memory given back", async () => {
    // The browser is up: its idle memory, with the sidecar's, is the baseline.
    expect((await run("/timer.html", "always")).ok).toBe(true);
    const idle = processTreeRssBytes(process.pid);
    let peak = idle;
    const sampler = setInterval(() => (peak = Math.max(peak, processTreeRssBytes(process.pid))), 100);
    try {
      const always = await run("/buffers.html", "always", { budgetMs: 8_000 });
      expect(always).toMatchObject({ ok: false, error: { code: "CONTENT_FETCH_FAILED", message: expect.stringMatching(/renderer crashed.*memory/) } });
      const auto = await run("/buffers.html", "auto", { budgetMs: 8_000 });
      expect(auto.ok && auto.value.content).toContain("lighthouses keep ships");
      expect(auto.ok && auto.value.metadata?.rendered).toBeUndefined();
    } finally {
      clearInterval(sampler);
    }
    // One page's 768 MB and what it writes between two readings of the tree, never the 2 GB it asks for.
    expect(peak - idle).toBeLessThan(1.5 * 1024 ** 3);
    await waitFor(() => processTreeRssBytes(process.pid) < idle + 256 * 1024 ** 2, "the sidecar's memory to come back near idle");
    const next = await run("/timer.html", "always");
    expect(next.ok && next.value.content).toContain("lighthouses keep ships");
  });

  it.each([
    ["read by a script over http, where the proxy decodes it", "http", "/bomb-reader.html"],
    ["read by a script over https, where the browser counts it", "https", "/bomb-reader.html"],
    ["read by a dedicated worker over https", "https", "/bomb-worker.html"],
    ["read by a frame of another site over https (another renderer process)", "https", "/bomb-frame.html"],
    ["as the document itself, over https", "https", "/bomb.html"],
  ])("stops a page receiving a gzip body that decodes past web.maxResponseBytes, %s", async (_what, scheme, path) => {
    const egress = egressDeps(dns, { ca: defaultPortCert.cert });
    const url = scheme === "http" ? `${origin.url}${path}` : `https://default-port.test${path}`;
    const fetchWith = (render: RenderMode) =>
      fetchContent({ url, preferReader: false, render, options: options({ allowHosts: ["127.0.0.2", DEFAULT_PORT_HOST] }), budgetMs: 8_000 }, { ...egress, limiter: deps.limiter, renderer });
    try {
      const always = await fetchWith("always");
      expect(always).toMatchObject({ ok: false, error: { code: "CONTENT_FETCH_FAILED", message: expect.stringMatching(/more than 1048576 bytes.*web\.maxResponseBytes/) } });
      const auto = await fetchWith("auto");
      expect(auto.ok && auto.value.content).toContain("lighthouses keep ships");
      expect(auto.ok && auto.value.metadata?.rendered).toBeUndefined();
    } finally {
      await egress.dispatchers.close();
    }
  });

  it("offers pages no shared workers: they belong to no page, so what they receive would go uncounted", async () => {
    const r = await run("/shared-worker.html", "always");
    expect(r.ok && r.value.content).toContain("Shared workers: undefined.");
  });
});

describe("render slots between sessions", () => {
  /** Requests for `path` the browser made (the static reads carry the sidecar's User-Agent). */
  // The browser sends our User-Agent too; its navigations say sec-fetch-mode: navigate, which no static read sends.
  const browserRequests = (path: string) => origin.requests.filter((q) => q.url === path && q.headers["sec-fetch-mode"] === "navigate").length;
  const twoSlots = () => createRenderer({ ...RENDER_SETTINGS, concurrency: 2, browserPath: browserPathFrom(process.env) }, { ...egressDeps(dns), connectTunnel: loopbackTunnel });

  /** Two slots with their browser up, so a page's deadline is not spent on the launch. */
  const warmTwoSlots = async () => {
    const slots = twoSlots();
    expect((await run("/short-static.html", "always", { deps: { ...deps, renderer: slots }, sessionKey: "warm-up" })).ok).toBe(true);
    return slots;
  };

  it("hold one session's two busy pages to one of two slots, so another session's page renders meanwhile", async () => {
    const slots = await warmTwoSlots();
    const on = { deps: { ...deps, renderer: slots } };
    try {
      const before = browserRequests("/busy.html");
      const busy = [run("/busy.html", "always", { ...on, budgetMs: 6_000, sessionKey: "a" }), run("/busy.html", "always", { ...on, budgetMs: 6_000, sessionKey: "a" })];
      await waitFor(() => browserRequests("/busy.html") > before, "a busy page in the browser");
      const other = await run("/timer.html", "always", { ...on, budgetMs: 5_000, sessionKey: "b" });
      expect(other.ok && other.value.content, JSON.stringify(other)).toContain("lighthouses keep ships");
      for (const r of await Promise.all(busy)) expect(r).toMatchObject({ ok: false, error: { code: "CONTENT_FETCH_TIMEOUT" } });
    } finally {
      await slots.close();
    }
  });

  // The deadlines leave room for a busy machine: a's first page outlasts the queueing of the others (a few seconds when
  // the test files around it load both CPUs), and c's page has ten seconds to render once a's slot is free; a's and
  // b's later pages, taken first, would hold both slots past c's deadline.
  it("give a freed slot to a session that has waited without one, before a busy session's next page", async () => {
    const slots = await warmTwoSlots();
    const on = { deps: { ...deps, renderer: slots } };
    const staticReads = () => origin.requests.filter((q) => q.url === "/busy.html" && q.headers["sec-fetch-mode"] === undefined).length;
    try {
      const [inBrowser, read] = [browserRequests("/busy.html"), staticReads()];
      // Session a's first page holds its slot briefly, b's long; then a's second page and b's second wait for a slot, and c's after them.
      const busy = [run("/busy.html", "always", { ...on, budgetMs: 4_000, sessionKey: "a" })];
      await waitFor(() => browserRequests("/busy.html") > inBrowser, "a's first page in the browser");
      busy.push(run("/busy.html", "always", { ...on, budgetMs: 18_000, sessionKey: "b" }));
      await waitFor(() => browserRequests("/busy.html") > inBrowser + 1, "b's first page in the browser");
      busy.push(run("/busy.html", "always", { ...on, budgetMs: 18_000, sessionKey: "a" }), run("/busy.html", "always", { ...on, budgetMs: 18_000, sessionKey: "b" }));
      await waitFor(() => staticReads() >= read + 4, "a's and b's second pages waiting for a slot");
      // Its deadline outlasts a's first page, not a's second.
      const third = await run("/timer.html", "always", { ...on, budgetMs: 14_000, sessionKey: "c" });
      expect(third.ok && third.value.content, JSON.stringify(third)).toContain("lighthouses keep ships");
      await Promise.all(busy);
    } finally {
      await slots.close();
    }
  }, 40_000);
});

describe("the browser's lifetime", () => {
  const browserPath = browserPathFrom(process.env);
  const ownRenderer = (over: Partial<typeof RENDER_SETTINGS>) => createRenderer({ ...RENDER_SETTINGS, ...over, browserPath }, { ...egressDeps(dns), connectTunnel: loopbackTunnel });

  it("gives new pages a new browser after SIDECAR_RENDER_MAX_PAGES, while the old one finishes the pages it has", async () => {
    const pool = ownRenderer({ concurrency: 3, maxPages: 2 });
    try {
      // Three sessions' pages, so all three render at once; their deadline covers two browsers' launches on a busy machine.
      const results = await Promise.all(["/timer.html", "/api.html", "/shadow.html"].map((path, i) => run(path, "always", { deps: { ...deps, renderer: pool }, budgetMs: 18_000, sessionKey: `session-${i}` })));
      for (const r of results) expect(r.ok && r.value.content).toContain("lighthouses keep ships");
      expect(pool.stats()).toMatchObject({ pages: 3, restarts: 1 });
      // The retired browser closes once its last page is done; the new one stays up.
      await waitFor(() => pool.stats().browsers === 1, "the retired browser to close");
      expect(pool.stats().rssBytes).toBeGreaterThan(10 * 1024 * 1024);
    } finally {
      await pool.close();
    }
    expect(pool.stats()).toMatchObject({ browsers: 0, rssBytes: 0 });
  }, 40_000);

  it("gives new pages a new browser once the browser's process tree holds more than SIDECAR_RENDER_MAX_RSS_MB", async () => {
    const pool = ownRenderer({ maxRssBytes: 1 });
    try {
      const first = await run("/api.html", "always", { deps: { ...deps, renderer: pool } });
      expect(first.ok && first.value.content).toContain("lighthouses keep ships");
      // A page gives its browser back once its context has closed (after its answer): then the browser is over the limit and retired.
      await waitFor(() => pool.stats().browsers === 0, "the browser over its memory limit to be retired");
      const second = await run("/timer.html", "always", { deps: { ...deps, renderer: pool } });
      expect(second.ok && second.value.content).toContain("lighthouses keep ships");
      expect(pool.stats()).toMatchObject({ pages: 2, restarts: 1 });
    } finally {
      await pool.close();
    }
  });

  it("reads a process tree's resident memory from /proc", () => {
    expect(processTreeRssBytes(process.pid)).toBeGreaterThan(process.memoryUsage().rss / 2);
    expect(processTreeRssBytes(2 ** 22 + 1)).toBe(0);
  });
});

describe("what was refused", () => {
  it("is counted in the answer and, at web.debug, logged one line each with its host and reason only", async () => {
    const quiet = await captureInfo(() => run("/hostile.html", "always"));
    expect(quiet.logged).toEqual([]);
    const { result, logged } = await captureInfo(() => run("/hostile.html", "always", { options: { debug: "minimal" } }));
    expect(result.ok && result.render?.refused).toBeGreaterThan(3);
    expect(result.ok && result.render?.requests).toBeGreaterThan(result.ok ? result.render!.refused : 0);
    const lines = logged.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) {
      expect(line.event).toBe("render_refused");
      expect(Object.keys(line).sort()).toEqual(line.more === undefined ? ["event", "host", "reason"] : ["event", "more"]);
    }
    expect(lines.map((line) => line.host)).toContain(`127.0.0.9:${canary9.port}`);
    const text = logged.join("\n");
    expect(text).not.toContain("SECRET-TOKEN-1");
    expect(text).not.toMatch(/\/(fetch|xhr|beacon|form|img)\b/);
    expect(renderer.stats().refused).toBeGreaterThanOrEqual(2 * (result.ok ? result.render!.refused : 0));
  });
});

describe("the proxy's CONNECT tunnels", () => {
  /** A proxy with one session of `maxBytes`, and a CONNECT through it with the session's credentials. */
  async function tunnelling(maxBytes: number) {
    const proxy = await startEgressProxy({ ...egressDeps(dns), connectTunnel: loopbackTunnel });
    const opened = proxy.open({ policy: { allowPrivateNetwork: false, allowHosts: ["127.0.0.2", DEFAULT_PORT_HOST] }, maxRequests: 10, maxBytes });
    if (!opened.ok) throw new Error(opened.error.message);
    const auth = `Basic ${Buffer.from(`${opened.value.username}:${opened.value.password}`).toString("base64")}`;
    const { hostname, port } = new URL(proxy.url);
    const tunnel = (authority: string) =>
      new Promise<{ status: number; socket: import("node:net").Socket }>((resolve, reject) => {
        http
          .request({ host: hostname, port, method: "CONNECT", path: authority, headers: { "proxy-authorization": auth } })
          .on("connect", (res, socket) => resolve({ status: res.statusCode ?? 0, socket }))
          .on("error", reject)
          .end();
      });
    return { proxy, session: opened.value, tunnel };
  }

  it("hold a session to its response bytes: past them the tunnel is closed and later tunnels are refused", async () => {
    const { proxy, session, tunnel } = await tunnelling(200);
    try {
      const opened = await tunnel(`secure.test:${secure.port}`);
      expect(opened.status).toBe(200);
      // The server's certificate alone is more than 200 bytes: the handshake never completes.
      const outcome = await new Promise<string>((resolve) => {
        const tls = tlsConnect({ socket: opened.socket, servername: "secure.test", ca: cert.cert }, () => resolve("connected"));
        tls.on("error", () => resolve("cut"));
        tls.on("close", () => resolve("cut"));
      });
      expect(outcome).toBe("cut");
      await waitFor(async () => session.refused === 1, "the cut to be counted");
      expect(session.refusals[0]?.reason).toMatch(/more than 200 response bytes/);
      const later = await tunnel(`secure.test:${secure.port}`);
      later.socket.destroy();
      expect(later.status).toBe(403);
    } finally {
      session.close();
      await proxy.close();
    }
  });

  it("tunnel to port 443, which a URL leaves out, and refuse an authority without a usable port", async () => {
    const { proxy, session, tunnel } = await tunnelling(100_000);
    try {
      const allowed = await tunnel("default-port.test:443");
      expect(allowed.status).toBe(200);
      const answer = await new Promise<string>((resolve, reject) => {
        const tls = tlsConnect({ socket: allowed.socket, servername: "default-port.test", ca: defaultPortCert.cert }, () =>
          tls.end("GET /app.html HTTP/1.1\r\nHost: default-port.test\r\nConnection: close\r\n\r\n"),
        );
        let text = "";
        tls.on("data", (chunk: Buffer) => (text += chunk.toString()));
        tls.on("end", () => resolve(text));
        tls.on("error", reject);
      });
      expect(answer).toMatch(/^HTTP\/1\.1 200/);
      for (const authority of ["default-port.test", "default-port.test:0", "default-port.test:65536", "default-port.test:44x", "[::1]", "default-port.test:443/path"]) {
        const refused = await tunnel(authority);
        refused.socket.destroy();
        expect(refused.status, authority).toBe(403);
      }
      expect(session.refused).toBe(6);
    } finally {
      session.close();
      await proxy.close();
    }
  });

  it("tunnel to an allowed HTTPS origin, TLS end to end, and are refused toward private addresses and names", async () => {
    const { proxy, session, tunnel } = await tunnelling(100_000);
    try {
      const allowed = await tunnel(`secure.test:${secure.port}`);
      expect(allowed.status).toBe(200);
      const answer = await new Promise<string>((resolve, reject) => {
        const tls = tlsConnect({ socket: allowed.socket, servername: "secure.test", ca: cert.cert }, () => tls.end("GET / HTTP/1.1\r\nHost: secure.test\r\nConnection: close\r\n\r\n"));
        let text = "";
        tls.on("data", (chunk: Buffer) => (text += chunk.toString()));
        tls.on("end", () => resolve(text));
        tls.on("error", reject);
      });
      expect(answer).toMatch(/^HTTP\/1\.1 200/);
      expect(answer).toContain("secure origin");
      for (const authority of [`127.0.0.9:${canary9.port}`, `canary.test:${canary9.port}`, `localhost:${canary1.port}`, `[::ffff:127.0.0.1]:${canary1.port}`]) {
        const refused = await tunnel(authority);
        refused.socket.destroy();
        expect(refused.status, authority).toBe(403);
      }
      expect(session.refused).toBe(4);
      expect(canary9.connections.length + canary1.connections.length).toBe(0);
    } finally {
      session.close();
      await proxy.close();
    }
  });
});

/** Runs `task` with console.info captured (the sidecar's web.debug lines go there). */
async function captureInfo<T>(task: () => Promise<T>): Promise<{ result: T; logged: string[] }> {
  const logged: string[] = [];
  const spy = vi.spyOn(console, "info").mockImplementation((line: unknown) => void logged.push(String(line)));
  try {
    return { result: await task(), logged };
  } finally {
    spy.mockRestore();
  }
}
