import { DEFAULT_WEB_CONFIG, resolveWebConfig, searchRequestFrom, SidecarSearchRequestSchema } from "@edge-web/shared";
import * as v from "valibot";
import { describe, expect, it } from "vitest";

describe("searchRequestFrom", () => {
  it("builds a valid request from the default web config, with keys only where given", () => {
    const request = searchRequestFrom(DEFAULT_WEB_CONFIG, "rust", 5, { tavily: "tvly-123", brave: "" });
    expect(request).toEqual({
      query: "rust",
      numResults: 5,
      provider: "ddgs",
      providerPriority: ["tavily", "serper", "brave", "openserp", "searxng", "ddgs"],
      timeoutMs: 10_000,
      maxResponseBytes: 1_048_576,
      connectionPool: { maxSockets: 10, timeout: 60_000 },
      debug: false,
      providers: {
        ddgs: { baseUrl: "https://lite.duckduckgo.com/lite/" },
        brave: { enabled: false, baseUrl: "https://api.search.brave.com/res/v1/web/search", apiKeyEnv: "BRAVE_SEARCH_API_KEY" },
        tavily: { enabled: false, baseUrl: "https://api.tavily.com/search", apiKeyEnv: "TAVILY_API_KEY", apiKey: "tvly-123" },
        serper: { enabled: false, baseUrl: "https://google.serper.dev/search", apiKeyEnv: "SERPER_API_KEY" },
        openserp: { enabled: false, baseUrl: "https://api.openserp.com/search", apiKeyEnv: "OPENSERP_API_KEY" },
        searxng: { enabled: false, baseUrl: "", defaultEngine: "google" },
      },
    });
    expect(v.parse(SidecarSearchRequestSchema, request)).toEqual(request);
  });

  it("carries the resolved settings", () => {
    const config = resolveWebConfig({
      provider: "auto",
      providerPriority: ["searxng", "brave"],
      timeoutMs: 1_234,
      searxng: { enabled: true, baseUrl: "http://10.0.0.5:8080", defaultEngine: "" },
      openserp: { enabled: true, apiKeyEnv: "OS_KEY" },
    });
    if (!config.ok) throw new Error(config.error.message);
    const request = searchRequestFrom(config.value, "q", 50, {});
    expect(request).toMatchObject({
      provider: "auto",
      providerPriority: ["searxng", "brave"],
      timeoutMs: 1_234,
      providers: { searxng: { enabled: true, baseUrl: "http://10.0.0.5:8080", defaultEngine: "" }, openserp: { enabled: true, apiKeyEnv: "OS_KEY" } },
    });
    expect(v.is(SidecarSearchRequestSchema, request)).toBe(true);
  });

  it("is refused by the schema when the worker forgot to validate its input", () => {
    const request = searchRequestFrom(DEFAULT_WEB_CONFIG, " ", 0, {});
    const issues = v.safeParse(SidecarSearchRequestSchema, request).issues ?? [];
    expect(issues.map((issue) => v.getDotPath(issue))).toEqual(["query", "numResults"]);
  });
});
