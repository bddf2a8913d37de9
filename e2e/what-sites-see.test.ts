import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHALLENGE_PAGES, challengeRoutes } from "../sidecar/test/support/challenge-pages.ts";
import { send, startOrigin, routes, type Handler, type Origin } from "../test-support/origin.ts";
import { startStack, type Stack } from "../test-support/stack.ts";

const ABOUT = "https://operator.example/about-our-fetcher";
const MARKDOWN = "# Tides\n\nThe moon pulls the sea twice a day.\n";

/** Markdown to whoever asks for it, HTML otherwise. */
const negotiating: Handler = (req, res) => {
  if ((req.headers.accept ?? "").includes("text/markdown")) res.writeHead(200, { "content-type": "text/markdown; charset=utf-8" }).end(MARKDOWN);
  else res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>Tides</title><p>HTML tides.</p>");
};

/** DuckDuckGo Lite markup listing two pages of the origin: one readable, one behind a bot check. */
const lite = (origin: string) => `<!DOCTYPE html><html><body><table>
<tr><td><a rel="nofollow" href="//duckduckgo.com/l/?uddg=${encodeURIComponent(`${origin}/tides`)}&amp;rut=1" class='result-link'>Tides</a></td></tr><tr><td class='result-snippet'>Tides.</td></tr>
<tr><td><a rel="nofollow" href="//duckduckgo.com/l/?uddg=${encodeURIComponent(`${origin}/challenge/0`)}&amp;rut=2" class='result-link'>Guarded</a></td></tr><tr><td class='result-snippet'>Guarded.</td></tr>
</table></body></html>`;

describe("what sites see of us, over npm start's stack", () => {
  let origin: Origin;
  let stack: Stack;

  beforeAll(async () => {
    origin = await startOrigin("127.0.0.2", routes({
      ...challengeRoutes(),
      "/robots.txt": send(200, "text/plain", "User-agent: EdgeWebTools\nDisallow: /members/\n"),
      "/members/list": send(200, "text/html", "<title>Members</title><p>Not for robots.</p>"),
      "/tides": negotiating, "/lite/": (req, res) => send(200, "text/html", lite(origin.url))(req, res, ""),
    }));
    stack = await startStack({ WEB_CONFIG: JSON.stringify({ allowHosts: ["127.0.0.2"], userAgentUrl: ABOUT, ddgs: { baseUrl: `${origin.url}/lite/` }, cache: { enabled: false } }) });
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    await origin?.close();
  });

  const api = async (path: string, body?: unknown) => {
    const res = await fetch(`${stack.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body ?? {}) });
    return { status: res.status, body: (await res.json()) as any };
  };
  const session = async () => (await api("/api/sessions", { source: "e2e" })).body.sessionId as string;

  it("sends our User-Agent with the operator's page, and asks for Markdown below HTML, which a site that has it answers", async () => {
    const id = await session();
    const read = await api(`/api/sessions/${id}/tools/fetch_content`, { url: `${origin.url}/tides` });
    expect(read.status).toBe(200);
    expect(read.body.results[0]).toMatchObject({ title: "Tides", contentType: "text/markdown", content: MARKDOWN.trimEnd(), metadata: { source: "origin-markdown" } });
    const request = origin.requests.find((r) => r.url === "/tides")!;
    expect(request.headers["user-agent"]).toMatch(new RegExp(`^EdgeWebTools/\\d+\\.\\d+\\.\\d+ \\(web tools for AI agents\\) \\(\\+${ABOUT.replace(/[.]/g, "\\.")}\\)$`));
    expect(request.headers.accept).toMatch(/^text\/html,.*text\/markdown;q=0\.9/);
  });

  it("answers every challenge fixture as CONTENT_FETCH_FAILED, fault blocked, 502, the default render included", async () => {
    const id = await session();
    for (const [i, page] of CHALLENGE_PAGES.entries()) {
      const read = await api(`/api/sessions/${id}/tools/fetch_content`, { url: `${origin.url}/challenge/${i}`, ...(i > 0 && { render: "never" }) });
      expect(read.status, page.name).toBe(502);
      expect(read.body.error, page.name).toMatchObject({ code: "CONTENT_FETCH_FAILED", details: { fault: "blocked", upstreamStatus: page.status } });
    }
  });

  it("holds fetch_content to the origin's robots.txt: 403 CONTENT_FETCH_FAILED, fault robots, the page never asked for", async () => {
    const id = await session();
    const read = await api(`/api/sessions/${id}/tools/fetch_content`, { url: `${origin.url}/members/list` });
    expect(read.status).toBe(403);
    expect(read.body.error).toMatchObject({ code: "CONTENT_FETCH_FAILED", details: { fault: "robots" }, message: expect.stringContaining('"Disallow: /members/"') });
    expect(origin.requests.some((request) => request.url === "/members/list")).toBe(false);
    expect(origin.requests.find((request) => request.url === "/robots.txt")?.headers["user-agent"]).toMatch(/^EdgeWebTools\//);
  });

  it("keeps a blocked search result with the reason instead of content", async () => {
    const id = await session();
    const found = await api(`/api/sessions/${id}/tools/web_search`, { query: "tides", includeContent: true });
    expect(found.status).toBe(200);
    const [tides, guarded] = found.body.queries[0].results;
    expect(tides.content).toMatchObject({ metadata: { source: "origin-markdown" } });
    expect(guarded).toMatchObject({ title: "Guarded", contentError: { code: "CONTENT_FETCH_FAILED", details: { fault: "blocked" } } });
    expect(guarded.content).toBeUndefined();
  });
});
