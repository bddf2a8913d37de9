import { describe, expect, inject, it } from "vitest";
import { newSession, tool } from "./helpers.ts";

const origin = inject("originUrl");
const DOCS = `${origin}/passages/tidewater-docs.html`;

describe("fetch_content with includeSelectors and excludeSelectors", () => {
  it("reads only the matched elements instead of the main content, and stores what it answered", async () => {
    const id = await newSession();
    const whole = (await tool(id, "fetch_content", { url: DOCS })).body.results[0];
    expect(whole.content).toContain("## Retries and backoff");
    expect(whole.content).not.toContain("Getting started");

    const res = await tool(id, "fetch_content", { url: DOCS, includeSelectors: ["nav.sidebar", "#nowhere"] });
    expect(res.status).toBe(200);
    const [page] = res.body.results;
    expect(page.content).toBe(`- [Getting started](${origin}/docs/start)\n- [Configuration](${origin}/docs/config)\n- [Command line](${origin}/docs/cli)`);
    expect(page.metadata).toMatchObject({ extraction: "selectors" });
    expect(page.parseWarning).toBe('includeSelectors: "#nowhere" matched nothing on this page');
    const stored = await tool(id, "get_search_content", { responseId: res.body.responseId, urlIndex: 0 });
    expect(stored.body.result.content).toBe(page.content);
  });

  it("removes what excludeSelectors match before the main content is read; passages come from what is left", async () => {
    const id = await newSession();
    const res = await tool(id, "fetch_content", { url: DOCS, excludeSelectors: ["table", "pre", "h2 + p"], query: "where is the configuration file" });
    const [page] = res.body.results;
    expect(page.content).toContain("## The configuration file");
    expect(page.content).not.toContain("| Key | Default | Meaning |");
    expect(page.content).not.toContain("sudo apt install tidewater");
    expect(page.content).not.toContain("reads its settings from /etc/tidewater/tidewater.toml");
    expect(page.parseWarning).toBeUndefined();
    for (const passage of page.passages) expect(page.content.slice(passage.offset, passage.end)).toBe(passage.text);
  });

  it("keeps pages read with other selectors apart in the fetch cache", async () => {
    const id = await newSession();
    const url = `${DOCS}?cache=${crypto.randomUUID()}`;
    const plain = (await tool(id, "fetch_content", { url })).body.results[0];
    const selected = (await tool(id, "fetch_content", { url, includeSelectors: ["nav.sidebar"] })).body.results[0];
    expect(selected).toMatchObject({ fromCache: false, metadata: { extraction: "selectors" } });
    const excluded = (await tool(id, "fetch_content", { url, includeSelectors: ["nav.sidebar"], excludeSelectors: ["li:first-child"] })).body.results[0];
    expect(excluded.fromCache).toBe(false);
    expect(excluded.content).not.toContain("Getting started");
    const again = (await tool(id, "fetch_content", { url, includeSelectors: ["nav.sidebar"] })).body.results[0];
    expect(again).toMatchObject({ fromCache: true, content: selected.content });
    expect((await tool(id, "fetch_content", { url })).body.results[0]).toMatchObject({ fromCache: true, content: plain.content });
  });

  it("answers the page with a parseWarning when no selector matches", async () => {
    const id = await newSession();
    const res = await tool(id, "fetch_content", { url: DOCS, includeSelectors: [".gone"], excludeSelectors: ["#also-gone"] });
    expect(res.status).toBe(200);
    const [page] = res.body.results;
    expect(page.content).toContain("## Retries and backoff");
    expect(page.parseWarning).toBe('excludeSelectors: "#also-gone" matched nothing on this page; includeSelectors: ".gone" matched nothing on this page; its main content is shown instead');
  });
});
