import { DEFAULT_WEB_CONFIG, resolveConfig, searchRequestFrom, SidecarSearchRequestSchema, WebConfigSchema } from "@edge-web/shared";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { OPERATOR_URLS_ONLY } from "../../test-support/operator-urls.ts";

describe("searchRequestFrom", () => {
  it("builds a valid request from the default web config, with keys only where given", () => {
    const request = searchRequestFrom(DEFAULT_WEB_CONFIG, "rust", 5, { tavily: "tvly-123", brave: "" }, OPERATOR_URLS_ONLY);
    expect(request).toEqual({
      query: "rust",
      numResults: 5,
      includeDomains: [],
      excludeDomains: [],
      provider: "ddgs",
      providerPriority: ["tavily", "serper", "brave", "openserp", "searxng", "ddgs"],
      timeoutMs: 10_000,
      maxResponseBytes: 1_048_576,
      connectionPool: { maxSockets: 10, timeout: 60_000 },
      debug: false,
      policy: { allowHosts: [], deniedDomains: [], allowedDomains: [] },
      providers: {
        ddgs: { baseUrl: "https://lite.duckduckgo.com/lite/", trusted: true },
        brave: { enabled: false, trusted: true, baseUrl: "https://api.search.brave.com/res/v1/web/search", apiKeyEnv: "BRAVE_SEARCH_API_KEY" },
        tavily: { enabled: false, trusted: true, baseUrl: "https://api.tavily.com/search", apiKeyEnv: "TAVILY_API_KEY", apiKey: "tvly-123" },
        serper: { enabled: false, trusted: true, baseUrl: "https://google.serper.dev/search", apiKeyEnv: "SERPER_API_KEY" },
        openserp: { enabled: false, trusted: true, baseUrl: "https://api.openserp.com/search", apiKeyEnv: "OPENSERP_API_KEY" },
        searxng: { enabled: false, trusted: true, baseUrl: "", defaultEngine: "google" },
      },
    });
    expect(v.parse(SidecarSearchRequestSchema, request)).toEqual(request);
  });

  it("carries the resolved settings", () => {
    const config = resolveConfig(WebConfigSchema, {
      provider: "auto",
      providerPriority: ["searxng", "brave"],
      timeoutMs: 1_234,
      searxng: { enabled: true, baseUrl: "http://10.0.0.5:8080", defaultEngine: "" },
      openserp: { enabled: true, apiKeyEnv: "OS_API_KEY" },
    });
    if (!config.ok) throw new Error(config.error.message);
    const request = searchRequestFrom(config.value, "q", 50, {}, { ...OPERATOR_URLS_ONLY, searxng: false });
    expect(request.providers.searxng.trusted).toBe(false);
    expect(request).toMatchObject({
      provider: "auto",
      providerPriority: ["searxng", "brave"],
      timeoutMs: 1_234,
      providers: { searxng: { enabled: true, baseUrl: "http://10.0.0.5:8080", defaultEngine: "" }, openserp: { enabled: true, apiKeyEnv: "OS_API_KEY" } },
    });
    expect(v.is(SidecarSearchRequestSchema, request)).toBe(true);
  });

  it("carries the caller's domain filters, and the schema refuses what is not a domain", () => {
    const request = searchRequestFrom(DEFAULT_WEB_CONFIG, "q", 5, {}, OPERATOR_URLS_ONLY, { includeDomains: ["docs.python.org"], excludeDomains: ["Pinterest.com"] });
    expect(request).toMatchObject({ includeDomains: ["docs.python.org"], excludeDomains: ["Pinterest.com"] });
    expect(v.is(SidecarSearchRequestSchema, request)).toBe(true);
    const bad = { ...request, includeDomains: ["https://docs.python.org"], excludeDomains: ["example.com/path"] };
    const issues = v.safeParse(SidecarSearchRequestSchema, bad).issues ?? [];
    expect(issues.map((issue) => v.getDotPath(issue))).toEqual(["includeDomains.0", "excludeDomains.0"]);
  });

  it("is refused by the schema when the worker forgot to validate its input", () => {
    const request = searchRequestFrom(DEFAULT_WEB_CONFIG, " ", 0, {}, OPERATOR_URLS_ONLY);
    const issues = v.safeParse(SidecarSearchRequestSchema, request).issues ?? [];
    expect(issues.map((issue) => v.getDotPath(issue))).toEqual(["query", "numResults"]);
  });
});
