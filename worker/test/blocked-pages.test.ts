import { inject } from "vitest";
import { describe, expect, it } from "vitest";
import { newSession, tool, withConfig } from "./helpers.ts";

const origin = inject("originUrl");
const blockedSearch = inject("blockedSearchUrl");

describe("blocked pages in workerd", () => {
  it("fetch_content answers a bot check as CONTENT_FETCH_FAILED, fault blocked, 502, with the origin's status", async () => {
    const config = withConfig({});
    const id = await newSession(config);
    const res = await tool(id, "fetch_content", { url: `${origin}/challenge/0` }, config);
    expect(res.status).toBe(502);
    expect(res.body.error).toMatchObject({ code: "CONTENT_FETCH_FAILED", message: expect.stringMatching(/refused automated reading/), details: { fault: "blocked", upstreamStatus: 403 } });
  });

  it("web_search with includeContent keeps a blocked page's result, without content and with the reason", async () => {
    const config = withConfig({ provider: "ddgs", ddgs: { baseUrl: blockedSearch }, cache: { enabled: false } });
    const id = await newSession(config);
    const res = await tool(id, "web_search", { query: "guarded pages", includeContent: true }, config);
    expect(res.status).toBe(200);
    const [article, guarded] = res.body.queries[0].results;
    expect(article.content).toMatchObject({ title: "Local Article" });
    expect(article.contentError).toBeUndefined();
    expect(guarded).toMatchObject({ title: "Guarded page", contentError: { code: "CONTENT_FETCH_FAILED", details: { fault: "blocked", upstreamStatus: 403 } } });
    expect(guarded.content).toBeUndefined();
    // The stored copy keeps the reason, and no content for it.
    const stored = await tool(id, "get_search_content", { responseId: res.body.responseId, queryIndex: 0 }, config);
    expect(stored.body.result.results[1]).toMatchObject({ contentError: { details: { fault: "blocked" } } });
    expect(stored.body.result.results[1].content).toBeUndefined();
  });
});
