import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KEYS, startFakeProviders, type FakeProviders } from "../sidecar/test/support/fake-providers.ts";
import { startFakeOpenAI } from "../test-support/fake-openai.ts";
import type { FakeModelServer } from "../test-support/model-script.ts";
import { routes, send, startOrigin, type Origin } from "../test-support/origin.ts";
import { startStack, type Stack } from "../test-support/stack.ts";

const SHOTS = join(import.meta.dirname, "output", "playground");
const MODEL_KEY = "sk-playground-model-key-0123456789abcdef";
const API_TOKEN = "playground-api-token-7f3a9c21d5";
const HEADING = "Loopback field notes";
const PARAGRAPH = "This page was served on a loopback origin and fetched through the playground.";
const PAGE = `<!doctype html><html lang="en"><head><title>${HEADING}</title></head><body><article><h1>${HEADING}</h1>
<p>${PARAGRAPH}</p><p>Its second paragraph says the fetch pipeline turned it into Markdown.</p></article></body></html>`;
/** A page whose title and text look like markup: they must come out as text, running nothing. */
const HOSTILE = `<!doctype html><html><head><title>&lt;img src=x onerror="window.__injected=1"&gt; Hostile title</title></head>
<body><main><h1>Hostile page</h1><p>&lt;script&gt;window.__injected=2&lt;/script&gt; and &lt;b&gt;not bold&lt;/b&gt; stay text.</p></main></body></html>`;
const ANSWER = "The loopback page says it was fetched through the playground.";
const DOC_TITLE = "Loopback survey report";
const DOC_HEADING = "Survey of the loopback range";
const DOC_FIRST = "The first page counts the hosts that answered on the loopback range.";
const DOC_SECOND = "The second page says the survey was converted to Markdown in the playground.";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const WAIT = { timeout: 20_000 };

/** What a page did that it should not have: console errors, uncaught errors, failed requests; and every URL it asked for. */
function watch(context: BrowserContext, page: Page) {
  const seen = { consoleErrors: [] as string[], failed: [] as string[], requests: [] as { url: string; method: string; authorization?: string; lastEventId?: string; protocol?: string }[] };
  page.on("console", (message) => {
    if (message.type() === "error") seen.consoleErrors.push(message.text());
  });
  page.on("pageerror", (error) => seen.consoleErrors.push(`pageerror: ${error.message}`));
  context.on("requestfailed", (request) => seen.failed.push(`${request.method()} ${request.url()}: ${request.failure()?.errorText}`));
  context.on("request", (request) => {
    const headers = request.headers();
    seen.requests.push({ url: request.url(), method: request.method(), authorization: headers.authorization, lastEventId: headers["last-event-id"], protocol: headers["x-pi-protocol-version"] });
  });
  return seen;
}

/** Failed requests other than streams cut on purpose: a reload closes the open one, a dropped connection cuts it. */
const unexpectedFailures = (failed: string[]) => failed.filter((line) => !(/\/stream: /.test(line) && /ERR_ABORTED|ERR_INCOMPLETE_CHUNKED_ENCODING|ERR_CONNECTION_RESET|ERR_EMPTY_RESPONSE/.test(line)));
/** Console errors other than the browser's own report of a stream whose connection was cut. */
const unexpectedConsole = (lines: string[]) => lines.filter((line) => !/ERR_INCOMPLETE_CHUNKED_ENCODING|ERR_CONNECTION_RESET|ERR_EMPTY_RESPONSE/.test(line));

/**
 * A front for the stack that serves it under `prefix` (as a deployment behind a base path would)
 * and can cut the streams passing through it, the way a dropped connection does.
 */
async function startBasePathProxy(target: string, prefix: string) {
  const streams = new Set<http.ServerResponse>();
  const requests: { path: string; lastEventId?: string }[] = [];
  const outside: string[] = [];
  const server = http.createServer((req, res) => {
    const url = req.url ?? "/";
    if (!url.startsWith(prefix)) {
      outside.push(url);
      res.writeHead(404, { "content-type": "text/plain" }).end("outside the base path");
      return;
    }
    const path = url.slice(prefix.length - 1);
    const lastEventId = req.headers["last-event-id"];
    requests.push({ path, ...(typeof lastEventId === "string" && { lastEventId }) });
    // The Host header goes on as the browser sent it, as a front must pass it: the page's origin is then one the server serves.
    const upstream = http.request(new URL(path, target), { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      res.flushHeaders();
      if (path.endsWith("/stream")) {
        streams.add(res);
        res.on("close", () => streams.delete(res));
      }
      answer.pipe(res);
    });
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    outside,
    streamRequests: () => requests.filter((r) => r.path.endsWith("/stream")),
    cutStreams: () => {
      for (const res of streams) res.socket?.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A two-page PDF: a large-font heading and a paragraph on the first page, a paragraph on the second. */
async function surveyPdf(): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(DOC_TITLE);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const first = pdf.addPage([595, 842]);
  first.drawText(DOC_HEADING, { x: 56, y: 760, size: 26, font: bold });
  first.drawText(DOC_FIRST, { x: 56, y: 716, size: 11, font: regular });
  const second = pdf.addPage([595, 842]);
  second.drawText(DOC_SECOND, { x: 56, y: 760, size: 11, font: regular });
  return Buffer.from(await pdf.save());
}

const shot = (page: Page, name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

const text = (locator: Locator) => locator.innerText();

describe("the playground page in a real browser", () => {
  let model: FakeModelServer;
  let providers: FakeProviders;
  let origin: Origin;
  let stack: Stack;
  let authStack: Stack;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let seen: ReturnType<typeof watch>;
  let pdf: Buffer;
  const persist = [mkdtempSync(join(tmpdir(), "edge-web-playground-")), mkdtempSync(join(tmpdir(), "edge-web-playground-auth-"))];

  beforeAll(async () => {
    rmSync(SHOTS, { recursive: true, force: true });
    mkdirSync(SHOTS, { recursive: true });
    let executablePath: string;
    try {
      executablePath = execFileSync("which", ["chromium"], { encoding: "utf8" }).trim();
    } catch {
      throw new Error("This test drives Debian's chromium, which is not installed: apt-get install -y chromium (.ci/run does it).");
    }
    model = await startFakeOpenAI({ apiKey: MODEL_KEY, models: ["playground-model"] });
    pdf = await surveyPdf();
    origin = await startOrigin(
      "127.0.0.2",
      routes({ "/notes.html": send(200, "text/html; charset=utf-8", PAGE), "/hostile.html": send(200, "text/html; charset=utf-8", HOSTILE), "/survey.pdf": send(200, "application/pdf", pdf) }),
    );
    const webConfig = JSON.stringify({ allowHosts: ["127.0.0.2"] });
    providers = await startFakeProviders();
    const { fakes } = providers;
    const searchConfig = {
      allowHosts: ["127.0.0.2"],
      provider: "ddgs",
      ddgs: { baseUrl: fakes.ddgs.baseUrl },
      brave: { enabled: true, baseUrl: fakes.brave.baseUrl },
      tavily: { enabled: true, baseUrl: fakes.tavily.baseUrl },
    };
    // One stack at a time: each start checks the installed dependencies, and two installs at once would collide.
    stack = await startStack({
      WEB_CONFIG: JSON.stringify(searchConfig),
      BRAVE_SEARCH_API_KEY: KEYS.brave,
      TAVILY_API_KEY: KEYS.tavily,
      AGENT_CONFIG: JSON.stringify({ modelProviders: { local: { api: "openai-compatible", baseURL: model.baseURL, apiKey: MODEL_KEY } }, defaultModel: "playground-model" }),
      PERSIST_DIR: persist[0]!,
    });
    [authStack, browser] = await Promise.all([
      startStack({ WEB_CONFIG: webConfig, API_TOKENS: API_TOKEN, PERSIST_DIR: persist[1]! }),
      chromium.launch({ executablePath, args: ["--no-sandbox"] }),
    ]);
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    page.setDefaultTimeout(WAIT.timeout);
    seen = watch(context, page);
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all([stack?.stop(), authStack?.stop()]);
    await origin?.close();
    await model?.close();
    await providers?.close();
    for (const dir of persist) rmSync(dir, { recursive: true, force: true });
  });

  const streamLog = () => page.getByRole("log", { name: "Session stream" });
  const statsRow = (name: string) => page.getByRole("row", { name: new RegExp(`^${name}`) });

  it("loads with a strict policy, no console errors, no failed requests and nothing but its own origin", async () => {
    const response = await page.goto(`${stack.url}/`);
    expect(response?.status()).toBe(200);
    const csp = response?.headers()["content-security-policy"] ?? "";
    for (const directive of ["default-src 'self'", "connect-src 'self'", "img-src 'self' data: blob:", "frame-ancestors 'none'"]) expect(csp).toContain(directive);
    expect(csp).not.toContain("unsafe-inline");
    expect(response?.headers()["x-content-type-options"]).toBe("nosniff");
    expect(response?.headers()["referrer-policy"]).toBe("no-referrer");

    await page.getByRole("heading", { level: 1, name: "edge-web-tools playground" }).waitFor();
    // The model catalog has loaded: the configured model is offered and the chat is open.
    await expect.poll(() => text(page.locator("#status")), WAIT).toMatch(/^Ready\. 1 model available/);
    await page.getByRole("combobox", { name: "Model" }).waitFor();
    expect(await page.getByRole("combobox", { name: "Model" }).locator("option").allTextContents()).toEqual(["Server default", "local · playground-model"]);
    expect(await page.getByLabel(/^Message/).isEnabled()).toBe(true);
    expect(await page.getByLabel("API token").getAttribute("type")).toBe("password");
    await shot(page, "1-loaded");
    // Light and dark follow the system's preference.
    const background = () => page.evaluate<string>("getComputedStyle(document.documentElement).backgroundColor");
    await page.emulateMedia({ colorScheme: "light" });
    const light = await background();
    await page.emulateMedia({ colorScheme: "dark" });
    expect(await background()).not.toBe(light);
    await shot(page, "1-loaded-dark");
    await page.emulateMedia({ colorScheme: "light" });

    expect(seen.consoleErrors).toEqual([]);
    expect(seen.failed).toEqual([]);
    expect(seen.requests.map((r) => r.url)).toEqual(expect.arrayContaining([`${stack.url}/`, `${stack.url}/playground.css`, `${stack.url}/playground.js`, `${stack.url}/api/config/models`]));
    const foreign = seen.requests.filter((r) => new URL(r.url).origin !== stack.url && !r.url.startsWith("data:"));
    expect(foreign).toEqual([]);
  });

  it("builds elements only through guarded helpers: h() refuses URL and on* attributes, safeLink() links only http(s) URLs", async () => {
    // The page's own dom module (same origin, so the CSP allows the import); imported from a string, which vitest leaves as it is.
    await page.evaluate(`import(${JSON.stringify(`${stack.url}/playground/dom.js`)}).then((dom) => { globalThis.playgroundDom = dom; })`);
    const checks = await page.evaluate(() => {
      type Element = { tagName: string; textContent: string | null; outerHTML: string; getAttribute(name: string): string | null };
      const { h, safeLink } = (globalThis as unknown as { playgroundDom: { h(tag: string, attrs: object, ...children: string[]): Element; safeLink(raw: string, label: string): Element } }).playgroundDom;
      const refusal = (attrs: Record<string, unknown>) => {
        try {
          h("a", attrs);
          return "built";
        } catch (error) {
          return `${(error as Error).name}: ${(error as Error).message}`;
        }
      };
      const link = (raw: string) => {
        const node = safeLink(raw, "label");
        return { tag: node.tagName, href: node.getAttribute("href"), rel: node.getAttribute("rel"), text: node.textContent };
      };
      return {
        refused: [{ href: "https://127.0.0.2/" }, { src: "x.png" }, { onclick: "window.__injected=3" }, { onclick: () => {} }, { HREF: "/" }, { onError: "x" }, { srcdoc: "<b>x</b>" }].map(refusal),
        built: h("p", { class: "meta", "aria-label": "facts", "data-state": "done", hidden: true, open: false }, "<b>text</b>").outerHTML,
        links: ["javascript:window.__injected=4", " JavaScript:window.__injected=5", "data:text/html,<script>1</script>", "vbscript:x", "attachment:abc", "not a url", "http://127.0.0.2/notes.html", "https://127.0.0.2/a?b=<c>"].map(link),
      };
    });
    for (const refusal of checks.refused) expect(refusal).toMatch(/^TypeError: h\(\) refuses the attribute "[A-Za-z]+"/);
    expect(checks.built).toBe('<p class="meta" aria-label="facts" data-state="done" hidden="">&lt;b&gt;text&lt;/b&gt;</p>');
    expect(checks.links.slice(0, 6)).toEqual(Array.from({ length: 6 }, () => ({ tag: "SPAN", href: null, rel: null, text: "label" })));
    expect(checks.links.slice(6)).toEqual([
      { tag: "A", href: "http://127.0.0.2/notes.html", rel: "noopener noreferrer nofollow", text: "label" },
      { tag: "A", href: "https://127.0.0.2/a?b=%3Cc%3E", rel: "noopener noreferrer nofollow", text: "label" },
    ]);
    expect(await page.evaluate("typeof window.__injected")).toBe("undefined");
    expect(seen.consoleErrors).toEqual([]);

    // Every module the page loaded is served as JavaScript, with the page's policy.
    const index = await fetch(`${stack.url}/`);
    await index.arrayBuffer();
    const modules = [...new Set(seen.requests.map((r) => r.url).filter((url) => /\/playground\/[a-z-]+\.js$/.test(url)))];
    expect(modules.length).toBeGreaterThan(10);
    for (const url of modules) {
      const res = await fetch(url);
      await res.arrayBuffer();
      expect([url, res.status, res.headers.get("content-type"), res.headers.get("content-security-policy")]).toEqual([url, 200, expect.stringMatching(/^text\/javascript/), index.headers.get("content-security-policy")]);
    }
  });

  it("creates a session and shows a fetch_content answer's Markdown", async () => {
    await page.getByRole("button", { name: "New session" }).click();
    await expect.poll(() => text(page.locator("#session-id")), WAIT).toMatch(UUID);
    await expect.poll(() => text(page.locator("#stream-state")), WAIT).toBe("live");

    // Two URLs, one per line: one call, two pages.
    const form = page.getByRole("form", { name: "fetch_content" });
    await form.getByLabel(/^URL/).fill(`${origin.url}/notes.html\n${origin.url}/hostile.html`);
    await form.getByRole("button", { name: "Fetch" }).click();

    const result = page.getByRole("region", { name: "Result" });
    await result.getByRole("heading", { name: HEADING }).waitFor();
    expect(await result.locator("pre.markdown").count()).toBe(2);
    // Markup in an answer is shown as text and never runs.
    await result.getByRole("heading", { name: '<img src=x onerror="window.__injected=1"> Hostile title' }).waitFor();
    const hostile = await text(result.locator("pre.markdown").nth(1));
    expect(hostile).toContain("<script>window.");
    expect(hostile).toContain("<b>not bold");
    expect(await result.locator("img, script, b").count()).toBe(0);
    expect(await page.evaluate("typeof window.__injected")).toBe("undefined");
    const markdown = result.locator("pre.markdown").first();
    // The page's title heads the result; its body is the Markdown, as text.
    await expect.poll(() => text(markdown), WAIT).toContain(PARAGRAPH);
    expect(await text(markdown)).toContain("Its second paragraph says the fetch pipeline turned it into Markdown.");
    // The page's text arrived as text: no element of the fetched page became part of this one.
    expect(await result.locator("article h1, article p").filter({ hasText: PARAGRAPH }).count()).toBe(0);
    // The direct call shows on the session's stream too.
    await expect.poll(() => text(streamLog()), WAIT).toContain(`${origin.url}/notes.html`);
    await expect.poll(() => text(statsRow("Tool calls")), WAIT).toMatch(/Tool calls\s+1$/);
    await shot(page, "2-fetch-content");

    expect(seen.consoleErrors).toEqual([]);
    expect(unexpectedFailures(seen.failed)).toEqual([]);
    expect(seen.requests.filter((r) => new URL(r.url).origin !== stack.url && !r.url.startsWith("data:"))).toEqual([]);
  });

  it("streams an agent turn: a fetch_content tool call, then the answer", async () => {
    model.script.script(
      { reasoning: ["The notes are on a page; ", "fetch it first."], toolCalls: [{ name: "fetch_content", arguments: { url: `${origin.url}/notes.html` } }] },
      { text: ["The loopback page says ", "it was fetched through the playground."] },
    );
    const input = page.getByLabel(/^Message/);
    await input.fill("What do the loopback field notes say?");
    await input.press("Enter");

    const log = streamLog();
    await expect.poll(() => text(log), WAIT).toContain(ANSWER);
    const turn = log.getByRole("article", { name: "Assistant message" }).filter({ hasText: ANSWER });
    const call = turn.locator("details.tool-call");
    expect(await call.count()).toBe(1);
    await expect.poll(() => text(call.locator(":scope > summary")), WAIT).toMatch(/Tool call fetch_content — done/);
    expect(await text(call.locator("pre.tool-input"))).toContain(`"url": "${origin.url}/notes.html"`);
    await expect.poll(() => text(turn), WAIT).toContain("Finished");
    // Reasoning is set apart, and folds away once it ends.
    const reasoning = turn.locator("details.reasoning");
    expect(await reasoning.count()).toBe(1);
    expect(await text(reasoning.locator(":scope > summary"))).toBe("Reasoning");
    expect(await reasoning.getAttribute("open")).toBeNull();
    expect(await reasoning.locator(".reasoning-text").textContent()).toBe("The notes are on a page; fetch it first.");
    // Deltas grow one text node per part; the finished message is no longer busy.
    expect(await reasoning.locator(".reasoning-text").evaluate((node) => node.childNodes.length)).toBe(1);
    expect(await turn.locator(".text-part").evaluate((node) => node.childNodes.length)).toBe(1);
    expect(await turn.getAttribute("aria-busy")).toBeNull();
    expect(await text(log.getByRole("article", { name: "Your message" }))).toContain("What do the loopback field notes say?");
    expect(await input.inputValue()).toBe("");
    await expect.poll(() => text(statsRow("Tool calls")), WAIT).toMatch(/Tool calls\s+2$/);
    await shot(page, "3-agent-turn");

    expect(model.script.requests.filter((r) => r.path === "/v1/chat/completions")).toHaveLength(2);
    expect(seen.consoleErrors).toEqual([]);
    expect(unexpectedFailures(seen.failed)).toEqual([]);
  });

  it("resumes after a reload: the turn is replayed and the stats show the tool calls", async () => {
    const sessionId = await text(page.locator("#session-id"));
    const streamsBefore = seen.requests.filter((r) => r.url.endsWith("/stream")).length;
    await page.reload();
    await expect.poll(() => text(page.locator("#session-id")), WAIT).toBe(sessionId);
    await expect.poll(() => text(page.locator("#stream-state")), WAIT).toBe("live");

    const log = streamLog();
    await expect.poll(() => text(log), WAIT).toContain(ANSWER);
    const turn = log.getByRole("article", { name: "Assistant message" }).filter({ hasText: ANSWER });
    await expect.poll(() => text(turn.locator("details.tool-call > summary")), WAIT).toMatch(/Tool call fetch_content — done/);
    expect(await text(turn.locator("pre.tool-input"))).toContain(`${origin.url}/notes.html`);
    expect(await text(log.getByRole("article", { name: "Your message" }))).toContain("What do the loopback field notes say?");
    // Both calls, the direct one and the agent's, were replayed.
    expect(await log.locator("details.tool-call").count()).toBe(2);
    await expect.poll(() => text(statsRow("Tool calls")), WAIT).toMatch(/Tool calls\s+2$/);
    expect(Number(await text(page.locator("#stream-last-id")))).toBeGreaterThan(5);
    await shot(page, "4-reloaded");

    // The replay asked for everything from the start; the session id stayed out of the address.
    expect(seen.requests.filter((r) => r.url.endsWith("/stream")).length).toBe(streamsBefore + 1);
    expect(page.url()).toBe(`${stack.url}/`);
    expect(seen.consoleErrors).toEqual([]);
    expect(unexpectedFailures(seen.failed)).toEqual([]);
  });

  it("converts a PDF by URL and from an uploaded file with convert_content", async () => {
    const form = page.getByRole("form", { name: "convert_content" });
    const result = page.getByRole("region", { name: "Result" });
    const doc = result.locator("article.result-item");
    const markdown = result.locator("pre.markdown");
    const pdfUrl = `${origin.url}/survey.pdf`;

    // By URL: the whole document, both pages.
    expect(await form.getByLabel("A URL").isChecked()).toBe(true);
    await form.getByLabel("Document URL").fill(pdfUrl);
    await form.getByRole("button", { name: "Convert" }).click();
    await result.getByRole("heading", { name: DOC_TITLE }).waitFor();
    await expect.poll(() => text(markdown), WAIT).toContain(DOC_FIRST);
    const byUrl = await text(markdown);
    // The large-font line is a Markdown heading, the rest body text, with a break between the pages.
    expect(byUrl).toMatch(new RegExp(`^#{1,3} ${DOC_HEADING}$`, "m"));
    expect(byUrl).toContain(DOC_SECOND);
    expect(byUrl.indexOf(DOC_FIRST)).toBeLessThan(byUrl.indexOf(DOC_SECOND));
    const urlFacts = await text(doc);
    expect(urlFacts).toContain("pages 2 of 2");
    expect(urlFacts).toContain("application/pdf");
    expect(urlFacts).toMatch(/converted by \S+/);
    expect(urlFacts).not.toContain("truncated");
    expect(await doc.getByRole("link", { name: pdfUrl }).getAttribute("href")).toBe(pdfUrl);
    // Its responseId can be read again with get_search_content.
    const responseId = await text(result.locator("p.meta", { hasText: "responseId" }).locator("code"));
    await result.getByRole("button", { name: "Read again" }).click();
    expect(await page.getByLabel("Response id").inputValue()).toBe(responseId);
    // On the stream the call shows the document like a fetched page: title, source link, foldable Markdown.
    const calls = streamLog().locator("details.tool-call").filter({ hasText: "convert_content" });
    await expect.poll(() => text(calls.first().locator(":scope > summary")), WAIT).toMatch(/Tool call convert_content — done/);
    const urlCall = calls.first().locator(".tool-output");
    expect(await text(urlCall)).toContain(DOC_TITLE);
    expect(await urlCall.getByRole("link", { name: pdfUrl }).getAttribute("href")).toBe(pdfUrl);
    expect(await text(urlCall.locator("details > summary"))).toMatch(/^Markdown \(\d+ characters\)$/);
    expect(await urlCall.locator(":scope > pre").count()).toBe(0);
    await expect.poll(() => text(statsRow("Tool calls")), WAIT).toMatch(/Tool calls\s+3$/);
    await calls.first().scrollIntoViewIfNeeded();
    await shot(page, "5a-convert-url");

    // From a file: uploaded to the session's attachments, then converted by its id; Enter in Pages runs it.
    await form.getByLabel("A file from this computer").check();
    expect(await form.getByLabel("Document URL").isHidden()).toBe(true);
    await form.getByLabel(/^File/).setInputFiles({ name: "survey.pdf", mimeType: "application/pdf", buffer: pdf });
    await form.getByLabel(/^Pages/).fill("2");
    await form.getByLabel(/^Pages/).press("Enter");
    await expect.poll(() => text(result), WAIT).toMatch(/Uploaded as attachment \S+ — survey\.pdf, application\/pdf/);
    await expect.poll(() => text(markdown), WAIT).toContain(DOC_SECOND);
    expect(await text(markdown)).not.toContain(DOC_FIRST);
    const fileFacts = await text(doc);
    expect(fileFacts).toContain("pages 1 of 2");
    const attachmentId = await text(result.locator("p.meta", { hasText: "Uploaded as attachment" }).locator("code"));
    expect(attachmentId.length).toBeGreaterThan(0);
    expect(fileFacts).toContain(`Source attachment:${attachmentId}`);
    expect(await doc.getByRole("link").count()).toBe(0);
    const uploads = seen.requests.filter((r) => r.method === "POST" && r.url.endsWith("/attachments"));
    expect(uploads).toHaveLength(1);
    // The stream's card names the attachment as text, not as a link.
    await expect.poll(() => calls.count(), WAIT).toBe(2);
    await expect.poll(() => text(calls.nth(1).locator(":scope > summary")), WAIT).toMatch(/Tool call convert_content — done/);
    const fileCall = calls.nth(1).locator(".tool-output");
    expect(await text(fileCall)).toContain(`attachment:${attachmentId}`);
    expect(await fileCall.getByRole("link").count()).toBe(0);
    await expect.poll(() => text(statsRow("Tool calls")), WAIT).toMatch(/Tool calls\s+4$/);
    await calls.nth(1).scrollIntoViewIfNeeded();
    await shot(page, "5b-convert-file");

    expect(seen.consoleErrors).toEqual([]);
    expect(unexpectedFailures(seen.failed)).toEqual([]);
    expect(seen.requests.filter((r) => new URL(r.url).origin !== stack.url && !r.url.startsWith("data:"))).toEqual([]);
  });

  it("works behind a base path and reconnects by itself when the connection drops, resuming after the last event", async () => {
    const proxy = await startBasePathProxy(stack.url, "/web/");
    const proxyContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const proxied = await proxyContext.newPage();
      proxied.setDefaultTimeout(WAIT.timeout);
      const proxiedSeen = watch(proxyContext, proxied);
      await proxied.goto(`${proxy.url}/web/`);
      await proxied.getByRole("button", { name: "New session" }).click();
      await expect.poll(() => text(proxied.locator("#stream-state")), WAIT).toBe("live");
      const log = proxied.getByRole("log", { name: "Session stream" });
      const fetchNotes = async () => {
        const form = proxied.getByRole("form", { name: "fetch_content" });
        await form.getByLabel(/^URL/).fill(`${origin.url}/notes.html`);
        await form.getByRole("button", { name: "Fetch" }).click();
      };
      await fetchNotes();
      await expect.poll(() => log.locator("details.tool-call[data-state=done]").count(), WAIT).toBe(1);
      const lastId = await text(proxied.locator("#stream-last-id"));
      expect(Number(lastId)).toBeGreaterThan(0);

      // The connection drops: the page reconnects with Last-Event-ID and shows each call once.
      const streamsBefore = proxy.streamRequests().length;
      proxy.cutStreams();
      await expect.poll(() => proxy.streamRequests().length, WAIT).toBe(streamsBefore + 1);
      expect(proxy.streamRequests().at(-1)?.lastEventId).toBe(lastId);
      await expect.poll(() => text(proxied.locator("#stream-state")), WAIT).toBe("live");
      await fetchNotes();
      await expect.poll(() => log.locator("details.tool-call[data-state=done]").count(), WAIT).toBe(2);
      expect(await log.locator("details.tool-call").count()).toBe(2);

      // The Reconnect button resumes the same way.
      const resumedFrom = await text(proxied.locator("#stream-last-id"));
      expect(Number(resumedFrom)).toBeGreaterThan(Number(lastId));
      await proxied.getByRole("button", { name: "Reconnect" }).click();
      await expect.poll(() => proxy.streamRequests().at(-1)?.lastEventId, WAIT).toBe(resumedFrom);
      await expect.poll(() => text(proxied.locator("#stream-state")), WAIT).toBe("live");
      expect(await log.locator("details.tool-call").count()).toBe(2);
      await expect.poll(() => text(proxied.getByRole("row", { name: /^Tool calls/ })), WAIT).toMatch(/Tool calls\s+2$/);
      await shot(proxied, "6-base-path-reconnected");

      // Every request stayed under the base path, on the page's own origin.
      expect(proxy.outside).toEqual([]);
      expect(proxiedSeen.requests.filter((r) => !r.url.startsWith(`${proxy.url}/web/`) && !r.url.startsWith("data:"))).toEqual([]);
      expect(unexpectedConsole(proxiedSeen.consoleErrors)).toEqual([]);
      expect(unexpectedFailures(proxiedSeen.failed)).toEqual([]);
    } finally {
      await proxyContext.close();
      await proxy.close();
    }
  });

  it("maps a site and follows a crawl until it ends, each fetched page with its responseId", async () => {
    const mapForm = page.getByRole("form", { name: "map" });
    await mapForm.getByLabel("Site URL").fill(`${origin.url}/notes.html`);
    await mapForm.getByLabel("Sources").selectOption("links");
    await mapForm.getByRole("button", { name: "Map" }).click();
    const result = page.getByRole("region", { name: "Result" });
    await expect.poll(() => text(result), WAIT).toMatch(/matching URLs \(\d+ found; 0 sitemap files read/);
    const form = page.getByRole("form", { name: "crawl" });
    await form.getByLabel("Start URL").fill(`${origin.url}/notes.html`);
    await form.getByLabel("Pages").fill("3");
    await form.getByLabel("Sources").selectOption("links");
    await form.getByRole("button", { name: "Crawl" }).click();
    await expect.poll(() => text(page.locator("#status")), WAIT).toMatch(/^The crawl completed: [1-3] pages fetched\.$/);
    expect(await text(result)).toContain(`${origin.url}/notes.html — fetched`);
    await result.getByRole("button", { name: "Read again" }).first().click();
    expect(await page.getByLabel("Response id").inputValue()).toMatch(/^[0-9a-f-]{36}$/);
    await shot(page, "9-crawl");
    expect(seen.requests.filter((r) => new URL(r.url).origin !== stack.url && !r.url.startsWith("data:"))).toEqual([]);
  });

  it("shows a failed tool call's error code and message", async () => {
    const before = seen.consoleErrors.length;
    const form = page.getByRole("form", { name: "fetch_content" });
    await form.getByLabel(/^URL/).fill("ftp://127.0.0.2/notes.txt");
    await form.getByRole("button", { name: "Fetch" }).click();
    const alert = page.getByRole("region", { name: "Result" }).getByRole("alert");
    await expect.poll(() => text(alert), WAIT).toMatch(/^CONTENT_FETCH_INVALID_URL — HTTP 400\n/);
    expect((await alert.locator(".error-message").innerText()).length).toBeGreaterThan(10);
    await expect.poll(() => text(page.locator("#status")), WAIT).toBe("fetch_content failed: CONTENT_FETCH_INVALID_URL.");
    await shot(page, "7-tool-error");
    // The browser reports the 400 answer itself in the console; nothing else was logged.
    expect(unexpectedConsole(seen.consoleErrors.slice(before)).filter((line) => !/status of 400/.test(line))).toEqual([]);
  });

  it("shows a ui-rpc answer on the stream, a failure as its code and message", async () => {
    const sessionId = await text(page.locator("#session-id"));
    const rpc = (correlationId: string, payload: unknown) =>
      fetch(`${stack.url}/api/sessions/${sessionId}/ui-rpc`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ correlationId, point: "custom", action: "execute", payload, protocolVersion: "0.1.0" }),
      });
    expect((await rpc("rpc-missing", { method: "results.get", params: { responseId: "nope" } })).status).toBe(200);
    expect((await rpc("rpc-stats", { method: "session.stats" })).status).toBe(200);
    await expect.poll(() => text(streamLog()), WAIT).toContain("ui-rpc answer rpc-stats: ok");
    expect(await text(streamLog())).toContain('ui-rpc answer rpc-missing: NOT_FOUND: No stored result has responseId "nope"');
  });

  it("reads a stored page again in windows, and finds passages in it", async () => {
    const fetchForm = page.getByRole("form", { name: "fetch_content" });
    await fetchForm.getByLabel(/^URL/).fill(`${origin.url}/notes.html`);
    await fetchForm.getByRole("button", { name: "Fetch" }).click();
    const result = page.getByRole("region", { name: "Result" });
    await result.getByRole("heading", { name: HEADING }).waitFor();
    await result.getByRole("button", { name: "Read again" }).click();

    const form = page.getByRole("form", { name: "get_search_content" });
    await form.getByLabel("URL index").fill("0");
    await form.getByLabel(/^Find/).fill("second paragraph");
    await form.getByRole("button", { name: "Read" }).click();
    const found = result.getByRole("region", { name: "Found passages" });
    await expect.poll(() => text(found), WAIT).toMatch(/^1 match for second paragraph/);
    expect(await text(found.locator("pre.markdown"))).toContain("Its second paragraph says");

    await form.getByLabel(/^Find/).fill("");
    await form.getByLabel("Max characters").fill("40");
    await form.getByRole("button", { name: "Read" }).click();
    await expect.poll(() => text(result), WAIT).toMatch(/characters 0–\d+ of \d+/);
    await result.getByRole("button", { name: "Next window" }).click();
    expect(Number(await form.getByLabel("Offset").inputValue())).toBeGreaterThan(0);
    await shot(page, "7b-read-again");
    expect(unexpectedFailures(seen.failed)).toEqual([]);
  });

  it("asks a page a question: its passages with their headings, the content cut to max characters, only the elements named", async () => {
    const form = page.getByRole("form", { name: "fetch_content" });
    await form.getByLabel(/^URL/).fill(`${origin.url}/notes.html`);
    await form.getByLabel(/^Question/).fill("What did the fetch pipeline turn it into?");
    await form.getByLabel("Max passages").fill("1");
    await form.getByLabel("Max characters").fill("30");
    await form.getByLabel(/^Only these elements/).fill("article");
    await form.getByLabel(/^Without these elements/).fill("p:first-of-type\n.nowhere");
    await form.getByRole("button", { name: "Fetch" }).click();
    const result = page.getByRole("region", { name: "Result" });
    const passages = result.getByRole("region", { name: `Passages of ${origin.url}/notes.html` });
    await expect.poll(() => text(passages), WAIT).toContain("Its second paragraph says the fetch pipeline turned it into Markdown.");
    expect(await passages.locator("li").count()).toBe(1);
    expect(await text(passages)).toMatch(new RegExp(`^${HEADING} · characters \\d+–\\d+ · score`));
    expect(await text(result)).toMatch(/cut at 30 of \d+ characters/);
    expect(await text(result)).toContain('Parse warning: excludeSelectors: ".nowhere" matched nothing on this page');
    expect(await text(result)).toContain("extraction: selectors");
    expect(await text(result.locator("pre.markdown").last())).not.toContain(PARAGRAPH);
    await shot(page, "7c-passages");
    for (const id of ["fc-query", "fc-passages", "fc-max", "fc-include", "fc-exclude"]) await page.locator(`#${id}`).fill("");
    expect(unexpectedFailures(seen.failed)).toEqual([]);
  });

  it("reads a page read before from the fetch cache, and fresh with max age 0; the stats count both", async () => {
    const form = page.getByRole("form", { name: "fetch_content" });
    const result = page.getByRole("region", { name: "Result" });
    // The first test read this page with the same options.
    await form.getByLabel(/^URL/).fill(`${origin.url}/notes.html`);
    await form.getByRole("button", { name: "Fetch" }).click();
    await expect.poll(() => text(result), WAIT).toMatch(/· cached copy, read \d{4}-\d\d-\d\dT/);
    await form.getByLabel(/^Max age/).fill("0");
    await form.getByRole("button", { name: "Fetch" }).click();
    await expect.poll(() => text(result), WAIT).toMatch(/· read \d{4}-\d\d-\d\dT/);
    expect(await text(result)).not.toContain("cached copy");
    await expect.poll(() => text(statsRow("Fetch cache")), WAIT).toMatch(/^Fetch cache hits \/ misses \/ revalidated\s+[1-9]\d* \/ [1-9]\d* \/ 0$/);
    await page.locator("#fc-max-age").fill("");
    expect(unexpectedFailures(seen.failed)).toEqual([]);
  });

  it("keeps only the newest 200 entries of a long stream, live and on a replay", async () => {
    const LOG_CAP = 200;
    const CALLS = LOG_CAP + 10;
    const capContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const capPage = await capContext.newPage();
      capPage.setDefaultTimeout(WAIT.timeout);
      const capSeen = watch(capContext, capPage);
      await capPage.goto(`${stack.url}/`);
      await capPage.getByRole("button", { name: "New session" }).click();
      await expect.poll(() => text(capPage.locator("#session-id")), WAIT).toMatch(UUID);
      await expect.poll(() => text(capPage.locator("#stream-state")), WAIT).toBe("live");
      const sessionId = await text(capPage.locator("#session-id"));

      // Each direct call is one message on the stream; reading back an id nothing was stored under fails at once.
      const call = (i: number) =>
        fetch(`${stack.url}/api/sessions/${sessionId}/tools/get_search_content`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ responseId: `missing-${i}` }),
        }).then((res) => res.body?.cancel());
      for (let i = 0; i < CALLS; i += 10) await Promise.all(Array.from({ length: 10 }, (_, j) => call(i + j)));

      const log = capPage.getByRole("log", { name: "Session stream" });
      const entries = log.locator(":scope > *");
      // The calls of a batch may reach the stream in any order: which calls are shown is checked, not where.
      const shownCalls = async () => (await log.locator("pre.tool-input").allTextContents()).map((input) => Number(/"missing-(\d+)"/.exec(input)?.[1]));
      const keepsTheNewest = async () => {
        // The last batch has arrived and every message has finished (none is busy for screen readers any more).
        await expect
          .poll(async () => {
            const calls = await shownCalls();
            return calls.filter((i) => i >= CALLS - 10).length === 10 && (await log.locator("[aria-busy]").count()) === 0;
          }, WAIT)
          .toBe(true);
        expect(await entries.count()).toBe(LOG_CAP);
        const calls = await shownCalls();
        expect(new Set(calls).size).toBe(LOG_CAP);
        // The first batch's messages left the log.
        expect(calls.filter((i) => !(i >= 10 && i < CALLS))).toEqual([]);
        expect(await entries.last().locator("details.tool-call").getAttribute("data-state")).toBe("error");
      };
      await keepsTheNewest();

      // Replaying every buffered frame keeps to the same cap.
      await capPage.getByRole("button", { name: "Replay from the start" }).click();
      await expect.poll(() => text(capPage.locator("#stream-state")), WAIT).toBe("live");
      await keepsTheNewest();
      await shot(capPage, "7b-long-stream");

      expect(unexpectedConsole(capSeen.consoleErrors)).toEqual([]);
      expect(unexpectedFailures(capSeen.failed)).toEqual([]);
    } finally {
      await capContext.close();
    }
  });

  it("asks before a tool call and shows what waits: Allow runs the call, a steer and a follow-up sent meanwhile queue, then join", async () => {
    const sandbox = (values: object) =>
      fetch(`${stack.url}/api/config/sandbox`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ values }) });
    expect((await sandbox({ askBeforeFetch: true })).status).toBe(200);
    const askContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const askPage = await askContext.newPage();
      askPage.setDefaultTimeout(WAIT.timeout);
      const askSeen = watch(askContext, askPage);
      await askPage.goto(`${stack.url}/`);
      await askPage.getByRole("button", { name: "New session" }).click();
      await expect.poll(() => text(askPage.locator("#session-id")), WAIT).toMatch(UUID);
      await expect.poll(() => text(askPage.locator("#stream-state")), WAIT).toBe("live");
      const sessionId = await text(askPage.locator("#session-id"));
      model.script.script(
        { toolCalls: [{ name: "fetch_content", arguments: { url: `${origin.url}/notes.html` } }] },
        { text: ["Only the title: ", "field notes."] },
        { text: ["Done, as asked."] },
      );
      const input = askPage.getByLabel(/^Message/);
      await input.fill("Read the loopback notes.");
      await input.press("Enter");

      const log = askPage.getByRole("log", { name: "Session stream" });
      const approval = log.getByRole("group", { name: "Allow fetch_content?" });
      const card = log.locator("details.tool-call > summary");
      await expect.poll(() => text(card), WAIT).toMatch(/— waiting for approval$/);
      // While the call waits, the API (no button of the page sends these) steers the turn and queues a follow-up.
      const send = (path: string, message: string) =>
        fetch(`${stack.url}/api/sessions/${sessionId}/${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ message }) });
      expect((await send("steer", "Only the title.")).status).toBe(200);
      expect((await send("follow_up", "Then say you are done.")).status).toBe(200);
      await expect.poll(() => text(log), WAIT).toContain('Waiting: steering "Only the title."; follow-up "Then say you are done.".');
      await approval.getByRole("button", { name: "Allow" }).click();
      await expect.poll(() => text(card), WAIT).toMatch(/— done$/);
      await expect.poll(() => text(log), WAIT).toContain("Done, as asked.");
      const shown = await text(log);
      expect(shown).toContain("Allowed.");
      expect(shown).toContain("Steered: Only the title.");
      expect(shown).toContain('Waiting: follow-up "Then say you are done.".');
      expect(shown).toContain("Nothing waits.");
      expect(shown).not.toContain("Unknown chunk");
      await shot(askPage, "7c-approval-and-queue");

      expect(unexpectedConsole(askSeen.consoleErrors)).toEqual([]);
      expect(unexpectedFailures(askSeen.failed)).toEqual([]);
    } finally {
      await askContext.close();
      await sandbox({ askBeforeFetch: null });
    }
  });

  it("with API_TOKENS set, says 401 clearly, then works with the token, which never reaches the address", async () => {
    const authContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const authPage = await authContext.newPage();
      authPage.setDefaultTimeout(WAIT.timeout);
      const authSeen = watch(authContext, authPage);
      await authPage.goto(`${authStack.url}/`);
      await expect.poll(() => text(authPage.locator("#status")), WAIT).toContain("401 UNAUTHORIZED");

      await authPage.getByRole("button", { name: "New session" }).click();
      const access = authPage.getByRole("region", { name: "Access" });
      const refusal = access.getByRole("alert");
      await expect.poll(() => text(refusal), WAIT).toContain("UNAUTHORIZED — HTTP 401");
      expect(await text(refusal)).toContain("enter one in the API token field");
      expect(await text(authPage.locator("#session-id"))).toBe("none");
      await shot(authPage, "8a-unauthorized");

      await authPage.getByLabel("API token").fill(API_TOKEN);
      await authPage.getByRole("button", { name: "New session" }).click();
      await expect.poll(() => text(authPage.locator("#session-id")), WAIT).toMatch(UUID);
      await expect.poll(() => access.getByRole("alert").count(), WAIT).toBe(0);
      await expect.poll(() => text(authPage.locator("#stream-state")), WAIT).toBe("live");
      const created = authSeen.requests.find((r) => r.method === "POST" && r.url === `${authStack.url}/api/sessions` && r.authorization);
      expect(created?.authorization).toBe(`Bearer ${API_TOKEN}`);
      await shot(authPage, "8b-token");

      // Kept in the tab only: sessionStorage, not localStorage, never the URL (also after a reload).
      const stored = await authPage.evaluate(() => ({ session: Object.values(sessionStorage), local: Object.values(localStorage) }));
      expect(stored.session).toContain(API_TOKEN);
      expect(stored.local.join("")).not.toContain(API_TOKEN);
      expect(authPage.url()).not.toContain(API_TOKEN);
      await authPage.reload();
      await expect.poll(() => text(authPage.locator("#stream-state")), WAIT).toBe("live");
      expect(await authPage.getByLabel("API token").inputValue()).toBe(API_TOKEN);
      expect(authPage.url()).not.toContain(API_TOKEN);
      expect(authSeen.requests.filter((r) => r.url.includes(API_TOKEN))).toEqual([]);
      expect(authSeen.requests.filter((r) => new URL(r.url).origin !== authStack.url && !r.url.startsWith("data:"))).toEqual([]);
    } finally {
      await authContext.close();
    }
  });

  it("never scrolls sideways, wide or narrow, with the long model-configuration example shown", async () => {
    const wideContext = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    try {
      const widePage = await wideContext.newPage();
      widePage.setDefaultTimeout(WAIT.timeout);
      await widePage.goto(`${authStack.url}/`);
      await widePage.getByLabel("API token").fill(API_TOKEN);
      await widePage.getByRole("button", { name: "Use token" }).click();
      const example = widePage.locator("#model-message code", { hasText: "AGENT_CONFIG='" });
      await example.waitFor();
      for (const width of [1400, 390]) {
        await widePage.setViewportSize({ width, height: 900 });
        const sizes = await widePage.evaluate<{ scrollWidth: number; innerWidth: number }>("({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth })");
        expect(sizes.scrollWidth, `${width} px wide`).toBeLessThanOrEqual(sizes.innerWidth);
        await shot(widePage, `9-no-model-${width}`);
      }
    } finally {
      await wideContext.close();
    }
  });

  it("searches several providers: who found each result at which rank, what each applied, which failed and why", async () => {
    const errorsBefore = seen.consoleErrors.length;
    // A session of its own: the tests before count their session's tool calls.
    await page.getByRole("button", { name: "New session" }).click();
    await expect.poll(() => text(page.locator("#stream-state")), WAIT).toBe("live");
    providers.fakes.tavily.behave(429);
    const form = page.getByRole("form", { name: "web_search" });
    await form.getByLabel(/^Query/).fill("rust programming");
    await form.getByLabel(/^Providers/).fill("brave, tavily, ddgs");
    await form.getByLabel(/^Not domains/).fill("wikipedia.org");
    await form.getByRole("button", { name: "Search" }).click();

    const result = page.getByRole("region", { name: "Result" });
    const failed = result.getByRole("list", { name: "Providers that failed" });
    await expect.poll(() => text(failed), WAIT).toMatch(/^tavily failed: PROVIDER_RATE_LIMITED: .*retry after 17/);
    const shown = await text(result);
    expect(shown).toMatch(/found by (brave #1, ddgs #1|ddgs #1, brave #1)/);
    expect(shown).toMatch(/Filters applied by .*brave: domains query/);
    expect(shown).not.toContain("wikipedia.org");
    for (const key of Object.values(KEYS)) expect(shown).not.toContain(key);
    providers.fakes.tavily.behave("succeed");
    await shot(page, "web-search");
    expect(unexpectedConsole(seen.consoleErrors.slice(errorsBefore))).toEqual([]);
  });

  it("declares the protocol version the server speaks on every API request, the stream included", async () => {
    const served = (await fetch(`${stack.url}/healthz`)).headers.get("x-pi-protocol-version");
    expect(served).toMatch(/^\d+\.\d+\.\d+$/);
    const calls = seen.requests.filter((r) => new URL(r.url).pathname.startsWith("/api/"));
    expect(calls.filter((r) => r.url.endsWith("/stream")).length).toBeGreaterThan(0);
    expect(calls.filter((r) => r.protocol !== served)).toEqual([]);
  });
});
