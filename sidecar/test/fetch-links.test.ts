import { DEFAULT_WEB_CONFIG, fetchOptionsFrom } from "@edge-web/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routes, send, startOrigin, type Origin } from "../../test-support/origin.ts";
import { fetchContent } from "../src/fetch/fetch-content.ts";
import { createSidecarDeps, settingsFromEnv } from "../src/sidecar-deps.ts";

let origin: Origin;
let deps: ReturnType<typeof createSidecarDeps>;
const PAGE = `<!doctype html><title>Links</title><base href="/docs/"><main><h1>Links</h1><p>A page whose links a crawl follows, with words enough to be read as its content.</p>
<a href="intro">Intro</a> <a href="/about#team">About</a> <a href="https://elsewhere.test/x">Elsewhere</a> <a href="mailto:someone@example.com">Mail</a> <a href="intro">Intro again</a></main>`;

beforeAll(async () => {
  deps = createSidecarDeps(settingsFromEnv({}));
  origin = await startOrigin(
    "127.0.0.2",
    routes({
      "/robots.txt": send(200, "text/plain", "User-agent: EdgeWebTools\nCrawl-delay: 2.5\nDisallow: /private\n\nUser-agent: *\nCrawl-delay: 30\n"),
      "/page.html": send(200, "text/html", PAGE),
      "/data.json": send(200, "application/json", '{"a": 1}'),
    }),
  );
});

afterAll(async () => {
  await deps?.renderer.close();
  await origin?.close();
  await deps?.dispatchers.close();
});

const read = (path: string, links: boolean, robots: "respect" | "ignore" = "respect") =>
  fetchContent({ url: `${origin.url}${path}`, preferReader: false, render: "never", links, options: { ...fetchOptionsFrom(DEFAULT_WEB_CONFIG), allowHosts: ["127.0.0.2"], robots } }, deps);

describe("a crawl's page: its links and its origin's Crawl-delay", () => {
  it("lists an HTML page's distinct http(s) links, absolute (its <base> honoured), without fragments, in document order, with our group's Crawl-delay", async () => {
    const page = await read("/page.html", true);
    expect(page.ok && page.value.links).toEqual([`${origin.url}/docs/intro`, `${origin.url}/about`, "https://elsewhere.test/x"]);
    expect(page.ok && page.value.crawlDelayMs).toBe(2_500);
  });

  it("answers neither unless asked, nor links for what is not HTML, nor a delay when robots.txt is ignored", async () => {
    const plain = await read("/page.html", false);
    expect(plain.ok && ("links" in plain.value || "crawlDelayMs" in plain.value)).toBe(false);
    const json = await read("/data.json", true);
    expect(json.ok && "links" in json.value).toBe(false);
    const ignored = await read("/page.html", true, "ignore");
    expect(ignored.ok && ignored.value.links?.length).toBe(3);
    expect(ignored.ok && "crawlDelayMs" in ignored.value).toBe(false);
  });
});
