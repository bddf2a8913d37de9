import { DEFAULT_WEB_CONFIG, fetchOptionsFrom, type FetchOptions } from "@edge-web/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { send, startOrigin, routes, type Handler, type Origin } from "../../test-support/origin.ts";
import { fetchContent } from "../src/fetch/fetch-content.ts";
import { createSidecarDeps, settingsFromEnv } from "../src/sidecar-deps.ts";

const MARKDOWN = "---\ntitle: Tides\n---\n\n# Tides\n\nThe moon pulls the sea twice a day.\n";
const HTML = "<!doctype html><html><head><title>Tides (HTML)</title></head><body><article><h1>Tides</h1><p>The moon pulls the sea twice a day, says the HTML.</p></article></body></html>";

/** The weight an Accept header gives a media type (1 when it names it without q, 0 when absent). */
function weight(accept: string, type: string): number {
  const range = accept.split(",").map((part) => part.trim().split(/\s*;\s*/)).find(([name]) => name === type);
  if (!range) return 0;
  const q = range.slice(1).find((param) => param.startsWith("q="));
  return q ? Number(q.slice(2)) : 1;
}

/** A site that answers Markdown to whoever asks for it, HTML otherwise. */
const negotiating: Handler = (req, res) => {
  const accept = req.headers.accept ?? "";
  if (weight(accept, "text/markdown") > 0) res.writeHead(200, { "content-type": "text/markdown; charset=utf-8", vary: "accept" }).end(MARKDOWN);
  else res.writeHead(200, { "content-type": "text/html", vary: "accept" }).end(HTML);
};

let origin: Origin;
let deps: ReturnType<typeof createSidecarDeps>;
const options = (over: Partial<FetchOptions> = {}): FetchOptions => ({ ...fetchOptionsFrom(DEFAULT_WEB_CONFIG), allowHosts: ["127.0.0.2"], timeoutMs: 4_000, ...over });

beforeAll(async () => {
  deps = createSidecarDeps(settingsFromEnv({}));
  origin = await startOrigin("127.0.0.2", routes({ "/tides": negotiating, "/page.html": send(200, "text/html", HTML) }));
});

afterAll(async () => {
  await deps.renderer.close();
  await origin.close();
  await deps.dispatchers.close();
});

describe("Markdown from the origin", () => {
  it("asks for Markdown with a lower weight than HTML", async () => {
    await fetchContent({ url: `${origin.url}/page.html`, preferReader: false, options: options() }, deps);
    const accept = origin.requests.at(-1)?.headers.accept ?? "";
    expect(weight(accept, "text/html")).toBe(1);
    expect(weight(accept, "text/markdown")).toBeGreaterThan(0);
    expect(weight(accept, "text/markdown")).toBeLessThan(weight(accept, "text/html"));
  });

  it('uses a page answered as text/markdown as served, with metadata.source "origin-markdown"', async () => {
    const answer = await fetchContent({ url: `${origin.url}/tides`, preferReader: false, options: options() }, deps);
    expect(answer).toMatchObject({ ok: true, value: { title: "Tides", contentType: "text/markdown", content: MARKDOWN.trimEnd(), metadata: { source: "origin-markdown" } } });
  });

  it("still cuts it to web.maxContentChars", async () => {
    const answer = await fetchContent({ url: `${origin.url}/tides`, preferReader: false, options: options({ maxContentChars: 20 }) }, deps);
    expect(answer).toMatchObject({ ok: true, value: { content: MARKDOWN.slice(0, 20), truncated: true, metadata: { source: "origin-markdown" } } });
  });

  it("says nothing of the source of a page it converted from HTML", async () => {
    const answer = await fetchContent({ url: `${origin.url}/page.html`, preferReader: false, options: options() }, deps);
    expect(answer.ok && answer.value.metadata?.source).toBeUndefined();
  });
});
