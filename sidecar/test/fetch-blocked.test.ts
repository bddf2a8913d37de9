import { DEFAULT_WEB_CONFIG, fetchOptionsFrom, type FetchOptions, type RenderMode } from "@edge-web/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { send, startOrigin, routes, type Handler, type Origin } from "../../test-support/origin.ts";
import { fetchContent } from "../src/fetch/fetch-content.ts";
import { createSidecarDeps, settingsFromEnv } from "../src/sidecar-deps.ts";
import { CHALLENGE_PAGES, challengeRoutes } from "./support/challenge-pages.ts";

const ARTICLE = "The lighthouse keeper's log tells of storms, ships and the long nights between them, page after page.";

/** A browser check a browser gets past: its script sets a cookie and reloads, and the cookie gets the article. */
const passableCheck: Handler = (req, res) => {
  if ((req.headers.cookie ?? "").includes("passed=1")) {
    res.writeHead(200, { "content-type": "text/html" }).end(`<!doctype html><html><head><title>The Log</title></head><body><article><h1>The Log</h1><p>${ARTICLE}</p></article></body></html>`);
    return;
  }
  res
    .writeHead(503, { "content-type": "text/html" })
    .end(`<!doctype html><html><head><title>Just a moment...</title><script src="/cdn-cgi/challenge-platform/scripts/jsd/main.js"></script></head><body><p>Checking your browser before accessing the site.</p><script>document.cookie = "passed=1; path=/"; location.reload();</script></body></html>`);
};

let origin: Origin;
let deps: ReturnType<typeof createSidecarDeps>;

const options = (over: Partial<FetchOptions> = {}): FetchOptions => ({ ...fetchOptionsFrom(DEFAULT_WEB_CONFIG), allowHosts: ["127.0.0.2"], timeoutMs: 8_000, ...over });
const run = (path: string, render: RenderMode = "never") => fetchContent({ url: `${origin.url}${path}`, preferReader: false, render, options: options() }, deps);
const hits = (path: string) => origin.requests.filter((request) => request.url === path).length;

beforeAll(async () => {
  deps = createSidecarDeps(settingsFromEnv({}));
  origin = await startOrigin(
    "127.0.0.2",
    routes({
      ...challengeRoutes(),
      "/gate": passableCheck,
      "/forbidden": send(403, "text/html", "<html><head><title>403 Forbidden</title></head><body><h1>403 Forbidden</h1><hr><center>nginx</center></body></html>"),
    }),
  );
});

afterAll(async () => {
  await deps.renderer.close();
  await origin.close();
  await deps.dispatchers.close();
});

describe("blocked pages fail honestly", () => {
  it.each(CHALLENGE_PAGES.map((page, i) => [page.name, i, page.status] as const))("%s: CONTENT_FETCH_FAILED, fault blocked, the origin's status", async (_name, i, status) => {
    const answer = await run(`/challenge/${i}`);
    expect(answer).toMatchObject({
      ok: false,
      error: { code: "CONTENT_FETCH_FAILED", message: expect.stringMatching(/refused automated reading/), details: { fault: "blocked", upstreamStatus: status } },
    });
  });

  it("keeps a plain 403 an upstream failure", async () => {
    expect(await run("/forbidden")).toMatchObject({ ok: false, error: { details: { fault: "upstream", upstreamStatus: 403 } } });
  });

  it('renders a challenge first under render "auto", and a rendered page that is still a challenge is still blocked', async () => {
    const managed = CHALLENGE_PAGES.findIndex((page) => page.headers["cf-mitigated"] === "challenge");
    const before = hits(`/challenge/${managed}`);
    const answer = await run(`/challenge/${managed}`, "auto");
    expect(answer).toMatchObject({ ok: false, error: { details: { fault: "blocked", upstreamStatus: 403 } } });
    // The static read and the browser's.
    expect(hits(`/challenge/${managed}`) - before).toBe(2);
  });

  it('reads the page a browser check lets a browser through to, under render "auto"', async () => {
    const answer = await run("/gate", "auto");
    expect(answer).toMatchObject({ ok: true, value: { title: "The Log", metadata: { rendered: true } } });
    expect(answer.ok && answer.value.content).toContain(ARTICLE);
  });

  it('fails a passable check without trying the browser under render "never"', async () => {
    const before = hits("/gate");
    expect(await run("/gate", "never")).toMatchObject({ ok: false, error: { details: { fault: "blocked", upstreamStatus: 503 } } });
    expect(hits("/gate") - before).toBe(1);
  });
});
