import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KEYS, startFakeProviders, type FakeProviders } from "../sidecar/test/support/fake-providers.ts";
import { startStack, type Stack } from "../test-support/stack.ts";

describe('web_search with provider "all" over npm start\'s stack', () => {
  let providers: FakeProviders;
  let stack: Stack;
  const persist = mkdtempSync(join(tmpdir(), "edge-web-search-"));

  beforeAll(async () => {
    providers = await startFakeProviders();
    const { fakes } = providers;
    const web = {
      provider: "ddgs",
      ddgs: { baseUrl: fakes.ddgs.baseUrl },
      brave: { enabled: true, baseUrl: fakes.brave.baseUrl },
      tavily: { enabled: true, baseUrl: fakes.tavily.baseUrl },
      serper: { enabled: true, baseUrl: fakes.serper.baseUrl },
      openserp: { enabled: true, baseUrl: fakes.openserp.baseUrl },
      searxng: { enabled: true, baseUrl: fakes.searxng.baseUrl },
    };
    stack = await startStack({
      WEB_CONFIG: JSON.stringify(web),
      BRAVE_SEARCH_API_KEY: KEYS.brave,
      TAVILY_API_KEY: KEYS.tavily,
      SERPER_API_KEY: KEYS.serper,
      PERSIST_DIR: persist,
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await providers?.close();
    rmSync(persist, { recursive: true, force: true });
  });

  it("asks every provider once over HTTP, answers their fused results with sources and applied, and a rate-limited one in providerErrors", async () => {
    const id = (await stack.api("POST", "/api/sessions", { source: "e2e" })).body.sessionId;
    providers.fakes.tavily.behave(429);
    const res = await stack.api("POST", `/api/sessions/${id}/tools/web_search`, { query: "rust programming", provider: "all", excludeDomains: ["wikipedia.org"] });
    expect(res.status).toBe(200);
    expect(providers.log.map((request) => request.provider).sort()).toEqual(["brave", "ddgs", "openserp", "searxng", "serper", "tavily"]);
    const [query] = res.body.queries;
    expect(query.providerErrors).toEqual({ tavily: { code: "PROVIDER_RATE_LIMITED", message: expect.stringContaining("retry after 17") } });
    expect(query.results[0]).toMatchObject({ url: "https://www.rust-lang.org/", sources: expect.arrayContaining([{ provider: "brave", rank: 1 }, { provider: "ddgs", rank: 1 }]) });
    expect(query.results[0].sources).toHaveLength(5);
    expect(query.results.some((result: { url: string }) => result.url.includes("wikipedia.org"))).toBe(false);
    expect(Object.keys(query.applied).sort()).toEqual(["brave", "ddgs", "openserp", "searxng", "serper"]);
    const everything = JSON.stringify(res.body) + stack.output.join("");
    for (const key of Object.values(KEYS)) expect(everything).not.toContain(key);
  });

  it("over MCP: the tool's schema offers provider and the filters, and the text says what each provider applied, which failed and who found each result", async () => {
    const client = new Client({ name: "e2e-search", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${stack.url}/mcp`)));
    try {
      const { tools } = await client.listTools();
      const properties = tools.find((tool) => tool.name === "web_search")?.inputSchema.properties ?? {};
      expect(Object.keys(properties)).toEqual(expect.arrayContaining(["provider", "recency", "includeDomains", "excludeDomains", "maxAge"]));
      providers.fakes.serper.behave(500);
      const searched = (await client.callTool({ name: "web_search", arguments: { query: "rust on mcp", provider: ["brave", "serper", "ddgs"], includeDomains: ["rust-lang.org"] } })) as {
        structuredContent: any;
        content: Array<{ text?: string }>;
      };
      expect(searched.structuredContent.queries[0].providerErrors.serper.code).toBe("PROVIDER_UNAVAILABLE");
      const text = searched.content.map((part) => part.text ?? "").join("\n");
      expect(text).toContain("Applied by ddgs: domains filtered");
      expect(text).toContain("Applied by brave: domains query");
      expect(text).toContain("serper failed: PROVIDER_UNAVAILABLE: ");
      expect(text).toContain("[Rust Programming Language](https://www.rust-lang.org/) (ddgs #1, brave #1)");
    } finally {
      await client.close();
    }
  });
});
