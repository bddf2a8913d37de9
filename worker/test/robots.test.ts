import { inject } from "vitest";
import { describe, expect, it } from "vitest";
import { newSession, tool, withConfig } from "./helpers.ts";

const origin = inject("originUrl");

describe("robots.txt in workerd", () => {
  it("fetch_content of a URL the origin's robots.txt disallows for EdgeWebTools: 403 CONTENT_FETCH_FAILED, fault robots, naming the rule", async () => {
    const config = withConfig({});
    const id = await newSession(config);
    const res = await tool(id, "fetch_content", { url: `${origin}/robots-private.html` }, config);
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: "CONTENT_FETCH_FAILED", details: { fault: "robots" }, message: expect.stringContaining('"Disallow: /robots-private"') });
    expect((await tool(id, "fetch_content", { url: `${origin}/article.html` }, config)).status).toBe(200);
  });

  it("convert_content by URL: 403 CONVERT_FAILED, fault robots", async () => {
    const config = withConfig({});
    const id = await newSession(config);
    const res = await tool(id, "convert_content", { url: `${origin}/robots-private.html` }, config);
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: "CONVERT_FAILED", details: { fault: "robots" } });
  });

  it('reads it with web.robots "ignore"', async () => {
    const config = withConfig({ robots: "ignore" });
    const id = await newSession(config);
    const res = await tool(id, "fetch_content", { url: `${origin}/robots-private.html` }, config);
    expect(res.status).toBe(200);
    expect(res.body.results[0].content).toContain("Not for robots.");
  });
});
