import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createHostLimiter, type ProviderName } from "@edge-web/shared";
import type { TestProject } from "vitest/node";
import { createConvertPool } from "../../sidecar/src/convert/service/convert-pool.ts";
import { createRobotsCache } from "../../sidecar/src/fetch/robots-cache.ts";
import { createSidecarServer, listen } from "../../sidecar/src/server.ts";
import { buildDocx, buildPdf, buildXlsx } from "../../sidecar/test/support/document-fixtures.ts";
import { startDnsServer } from "../../sidecar/test/support/dns-server.ts";
import { egressDeps } from "../../sidecar/test/support/egress.ts";
import { KEYS, startFakeProviders, type Behavior } from "../../sidecar/test/support/fake-providers.ts";
import { challengeRoutes } from "../../sidecar/test/support/challenge-pages.ts";
import { startFakeAnthropic } from "../../test-support/fake-anthropic.ts";
import { startFakeOpenAI } from "../../test-support/fake-openai.ts";
import { cacheOriginRoutes } from "../../test-support/cache-origin.ts";
import { routes, send, startOrigin } from "../../test-support/origin.ts";
import { relayUpstreamRoutes } from "../../test-support/relay-upstream.ts";
import { wireReplayRoute } from "../../test-support/wire-replay-route.ts";
import { passagePageRoutes } from "../../test-support/passage-routes.ts";
import "./provided-context.d.ts";

const ARTICLE = `<!doctype html><html lang="en"><head><title>Local Article</title></head>
<body><nav><a href="/">Home</a></nav><main><h1>Local Article</h1>
<p>The sidecar fetched this page from a loopback origin and turned it into Markdown.</p>
<ul><li>first point</li><li>second point</li></ul></main></body></html>`;

const GONE: [string, string, string] = ["/missing", "Gone", "This page answers 404."];
/** DuckDuckGo Lite markup whose results point at `pages.test` (our loopback origin): [path, title, snippet] each. */
const ddgLite = (port: number, results: Array<[string, string, string]>) => `<!DOCTYPE html><html><head><title>results at DuckDuckGo</title></head><body><table border="0">
${results
  .map(
    ([path, title, snippet], i) => `<tr><td valign="top">${i + 1}.&nbsp;</td><td><a rel="nofollow" href="//duckduckgo.com/l/?uddg=${encodeURIComponent(`http://pages.test:${port}${path}`)}&amp;rut=${i + 1}" class='result-link'>${title}</a></td></tr>
<tr><td>&nbsp;</td><td class='result-snippet'>${snippet}</td></tr>`,
  )
  .join("\n")}
</table></body></html>`;

/**
 * About 24,000 characters of text: 60 paragraphs of 4 lines, a parrot (a surrogate pair) in every
 * line, and "Hidden Needle" in line 2 of paragraphs 7, 27 and 47.
 */
/** A page of 20,000 characters in paragraphs, each naming its chapter. */
const chapterText = (n: number) =>
  Array.from({ length: 50 }, (_, p) => `Chapter ${n}, paragraph ${p}: the survey found fact ${n}.${p} about the river delta.`.padEnd(398, ".")).join("\n\n");

const LONG_TEXT = Array.from({ length: 60 }, (_, paragraph) =>
  Array.from({ length: 4 }, (_, line) =>
    `Paragraph ${paragraph} line ${line}: the quick brown fox \u{1F99C} jumps over the lazy dog${paragraph % 20 === 7 && line === 2 ? " near the Hidden Needle" : ""}`.padEnd(100, "."),
  ).join("\n"),
).join("\n\n");

/** The keys the fake model servers accept; no frame, message, state or log may ever contain one. */
const MODEL_KEYS = { openai: "sk-fake-openai-key-0123456789abcdef", anthropic: "sk-ant-fake-key-0123456789abcdef" };

/**
 * A real sidecar (the worker's bindings point at it), a real origin on 127.0.0.2, fake search
 * providers speaking each provider's wire format, and a control server tests in workerd use to
 * steer the fakes. The sidecar resolves names through a loopback DNS server that knows only
 * `pages.test`, and its connections are guarded to loopback.
 */
export default async function setup(project: TestProject) {
  const pdf = Buffer.from(
    await buildPdf({
      title: "Field guide",
      pages: [
        { heading: "Field guide", paragraphs: ["The first page of a PDF served from a loopback origin."] },
        { heading: "Second chapter", paragraphs: ["The second page says where the birds nest."] },
        { heading: "Third chapter", paragraphs: ["The third page closes the guide."] },
      ],
    }),
  );
  const docx = Buffer.from(buildDocx({ heading: "Minutes", paragraph: "The meeting agreed on a plan." }));
  const xlsx = Buffer.from(buildXlsx({ sheets: [{ name: "Budget", rows: [["Item", "Cost"], ["Tents", 120], ["Maps", 15]] }] }));
  let flakyRequests = 0;
  const origin = await startOrigin(
    "127.0.0.2",
    routes({
      ...relayUpstreamRoutes(),
      ...cacheOriginRoutes(),
      "/article.html": send(200, "text/html; charset=utf-8", ARTICLE),
      // A model server whose answers the request names (test-support/wire-replay.ts).
      "/replay/chat/completions": wireReplayRoute(),
      "/replay/messages": wireReplayRoute(),
      "/notes.txt": send(200, "text/plain; charset=utf-8", "plain notes\nsecond line"),
      "/data.json": send(200, "application/json", JSON.stringify({ name: "widget", size: 3 })),
      "/report.pdf": send(200, "application/pdf", "%PDF-1.7\n%binary"),
      "/guide.pdf": send(200, "application/pdf", pdf),
      "/minutes.docx": send(200, "application/vnd.openxmlformats-officedocument.wordprocessingml.document", docx),
      "/budget.xlsx": send(200, "application/octet-stream", xlsx),
      // A sidecar whose every other answer is a connection closed without a word, as a kept-alive socket closing on reuse looks.
      "/flaky-sidecar/v1/fetch": (req, res) => {
        if (flakyRequests++ % 2 === 0) req.socket.destroy();
        else res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ok: true, value: { url: "http://x.test/", content: "second try", truncated: false }, bytes: 10 }));
      },
      // A sidecar that answers a fetch with the request's body as the page's content.
      "/echo-sidecar/v1/fetch": (_req, res, body) =>
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ok: true, value: { url: "http://x.test/", content: body, truncated: false }, bytes: 0 })),
      "/guide-redirect": send(302, "text/plain", "", { location: "http://127.0.0.1:9/guide.pdf" }),
      "/missing": send(404, "text/html", "<h1>gone</h1>"),
      "/gone": send(410, "text/html", "<h1>gone for good</h1>"),
      "/broken": send(500, "text/html", "<h1>server error</h1>"),
      "/private": send(403, "text/html", "<h1>members only</h1>"),
      // robots.txt: our product token may not read /robots-private*; everyone else may read everything.
      // Under a host name starting "down-" (<anything>.robots.test resolves here) it answers 503.
      "/robots.txt": (req, res, body) =>
        (req.headers.host?.startsWith("down-") ? send(503, "text/plain", "down") : send(200, "text/plain", "User-agent: EdgeWebTools\nDisallow: /robots-private\n\nUser-agent: *\nAllow: /\n"))(req, res, body),
      // How many times /robots.txt was asked for under ?host= (a host:port).
      "/robots-reads": (req, res) => {
        const host = new URL(req.url ?? "/", "http://origin").searchParams.get("host");
        const reads = origin.requests.filter((request) => request.url === "/robots.txt" && request.headers.host === host).length;
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(reads));
      },
      "/robots-private.html": send(200, "text/html", "<title>Private</title><p>Not for robots.</p>"),
      // Bot checks and block pages: /challenge/0 … (sidecar/test/support/challenge-pages.ts).
      ...challengeRoutes(),
      "/photo.png": send(200, "image/png", "\x89PNG\r\n\x1a\n"),
      "/big.txt": send(200, "text/plain", "x".repeat(50_000)),
      "/long.txt": send(200, "text/plain; charset=utf-8", LONG_TEXT),
      // 20,000-character pages for the compaction tests: /chapter-1.txt … /chapter-12.txt.
      ...Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`/chapter-${i + 1}.txt`, send(200, "text/plain; charset=utf-8", chapterText(i + 1))])),
      // 24,000 UTF-16 units of parrots (surrogate pairs) and not one line break.
      "/parrots.txt": send(200, "text/plain; charset=utf-8", "\u{1F99C}".repeat(12_000)),
      "/to-localhost": send(302, "text/plain", "", { location: "http://localhost/secret" }),
      "/to-notes": (_req, res) => res.writeHead(302, { location: "/notes.txt" }).end(),
      // Answers after ?ms= milliseconds, with ?chars= characters of ?char= (default "x").
      "/delay": (req, res) => {
        const query = new URL(req.url ?? "/", "http://origin").searchParams;
        const body = (query.get("char") ?? "x").repeat(Number(query.get("chars") ?? "100"));
        setTimeout(() => res.writeHead(200, { "content-type": "text/plain; charset=utf-8" }).end(body), Number(query.get("ms") ?? "0")).unref();
      },
      "/slow": (_req, res) => {
        res.writeHead(200, { "content-type": "text/plain" });
        res.write("start");
        setTimeout(() => res.end("late"), 5_000).unref();
      },
      // Pages whose answering paragraphs are known: /passages/*.
      ...passagePageRoutes(),
    }),
  );
  const localSearch = await startOrigin(
    "127.0.0.3",
    routes({
      // Two of the labelled passage pages.
      "/passages/lite/": send(200, "text/html; charset=utf-8", ddgLite(origin.port, [["/passages/tidal-plant.html", "Kestrel Bay switches on its tidal turbines", "A harbour town's tidal array."], ["/passages/varrow-river.html", "Varrow (river)", "A river in the northern uplands."]])),
      // One page that works, one that fails.
      "/lite/": send(200, "text/html; charset=utf-8", ddgLite(origin.port, [["/article.html", "Local Article", "A page on the loopback origin."], GONE])),
      "/long/lite/": send(200, "text/html; charset=utf-8", ddgLite(origin.port, [["/long.txt", "Long text", "A long page on the loopback origin."], GONE])),
      // One page that works, one behind Cloudflare's managed challenge.
      "/blocked/lite/": send(200, "text/html; charset=utf-8", ddgLite(origin.port, [["/article.html", "Local Article", "A page on the loopback origin."], ["/challenge/0", "Guarded page", "Behind a bot check."]])),
      // One result: a page of its own for each query, that says how many times it was read.
      "/cache/lite/": (req, res) => {
        const q = new URL(req.url ?? "/", "http://search").searchParams.get("q") ?? "";
        send(200, "text/html; charset=utf-8", ddgLite(origin.port, [[`/cache/changing?k=${encodeURIComponent(q)}`, "Changing page", "A page that counts its reads."]]))(req, res, "");
      },
    }),
  );
  // private.test resolves to a private address: vetting refuses it without connecting anywhere.
  const dns = await startDnsServer((name, type) => {
    if (name === "pages.test") return type === "A" ? ["127.0.0.2"] : [];
    // Origins of their own for robots.txt tests (every sidecar's memory of them starts empty).
    if (name.endsWith(".robots.test")) return type === "A" ? ["127.0.0.2"] : [];
    if (name === "private.test") return type === "A" ? ["10.0.0.1"] : [];
    return "nxdomain";
  });
  // Records every request it receives: a configured URL that should never carry a secret points here.
  const received: Array<{ method: string; url: string; headers: Record<string, unknown>; body: string }> = [];
  const attacker = createServer((req, res) => {
    if (req.url === "/__received") return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(received));
    if (req.url === "/__reset") {
      received.length = 0;
      return void res.writeHead(204).end();
    }
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(200, { "content-type": "application/json" }).end('{"results":[],"data":[],"organic":[],"web":{"results":[]}}');
    });
  });
  await new Promise<void>((resolve) => attacker.listen(0, "127.0.0.9", resolve));
  const converter = createConvertPool({ threads: 2, maxQueued: 8, memoryMb: 256 });
  const deps = { ...egressDeps(dns), limiter: createHostLimiter({ maxConcurrent: 64, maxPerHost: 10, maxQueue: 256 }), converter };
  const sidecar = createSidecarServer({ token: process.env.TEST_SIDECAR_TOKEN ?? "", deps });
  await listen(sidecar, Number(process.env.TEST_SIDECAR_PORT), "127.0.0.1");
  // A second sidecar with a robots.txt memory of its own (the first keeps none): what one read, the other learns only through KV.
  const secondSidecar = createSidecarServer({ token: process.env.TEST_SIDECAR_TOKEN ?? "", deps: { ...deps, robots: createRobotsCache() } });
  const second = await listen(secondSidecar, 0, "127.0.0.1");

  const providers = await startFakeProviders();
  const openai = await startFakeOpenAI({ apiKey: MODEL_KEYS.openai, models: ["fake-gpt", "fake-mini"] });
  const anthropic = await startFakeAnthropic({ apiKey: MODEL_KEYS.anthropic });
  // Fakes of their own for the compaction tests, which set a context window on them.
  const smallOpenai = await startFakeOpenAI({ apiKey: MODEL_KEYS.openai, models: ["small-gpt"] });
  const smallAnthropic = await startFakeAnthropic({ apiKey: MODEL_KEYS.anthropic });
  const control = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://control");
    const provider = url.searchParams.get("provider") as ProviderName;
    if (url.pathname === "/reset") providers.reset();
    else if (url.pathname === "/behave") providers.fakes[provider].behave(JSON.parse(url.searchParams.get("behavior") ?? '"succeed"') as Behavior);
    const counts = Object.fromEntries(Object.entries(providers.fakes).map(([name, fake]) => [name, fake.requests.length]));
    const last = provider ? providers.fakes[provider]?.requests.at(-1) : undefined;
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ counts, last: last && { query: last.query, body: last.body } }));
  });
  await new Promise<void>((resolve) => control.listen(0, "127.0.0.1", resolve));

  project.provide("originUrl", origin.url);
  project.provide("secondSidecarUrl", `http://127.0.0.1:${second.port}`);
  project.provide("attackerUrl", `http://127.0.0.9:${(attacker.address() as AddressInfo).port}`);
  project.provide("controlUrl", `http://127.0.0.1:${(control.address() as AddressInfo).port}`);
  project.provide("providerUrls", Object.fromEntries(Object.entries(providers.fakes).map(([name, fake]) => [name, fake.baseUrl])));
  project.provide("providerKeys", KEYS);
  project.provide("passageSearchUrl", `${localSearch.url}/passages/lite/`);
  project.provide("localSearchUrl", `${localSearch.url}/lite/`);
  project.provide("localLongSearchUrl", `${localSearch.url}/long/lite/`);
  project.provide("blockedSearchUrl", `${localSearch.url}/blocked/lite/`);
  project.provide("cacheSearchUrl", `${localSearch.url}/cache/lite/`);
  project.provide("fakeModels", { openai: { baseURL: openai.baseURL, url: openai.url, apiKey: MODEL_KEYS.openai }, anthropic: { baseURL: anthropic.baseURL, url: anthropic.url, apiKey: MODEL_KEYS.anthropic } });
  project.provide("smallModels", {
    openai: { baseURL: smallOpenai.baseURL, url: smallOpenai.url, apiKey: MODEL_KEYS.openai },
    anthropic: { baseURL: smallAnthropic.baseURL, url: smallAnthropic.url, apiKey: MODEL_KEYS.anthropic },
  });

  return async () => {
    attacker.close();
    control.close();
    await openai.close();
    await anthropic.close();
    await smallOpenai.close();
    await smallAnthropic.close();
    await providers.close();
    await localSearch.close();
    await origin.close();
    for (const server of [sidecar, secondSidecar]) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    await deps.dispatchers.close();
    await converter.close();
    await dns.close();
  };
}
