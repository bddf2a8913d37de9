import { describe, expect, it } from "vitest";
import { DEFAULT_WEB_CONFIG, resolveConfig, WebConfigSchema, WEB_ERROR_CODES, isCompatibleProtocolVersion } from "../src/index.ts";

describe("web config", () => {
  it("has the documented defaults, with the cache on", () => {
    expect(DEFAULT_WEB_CONFIG.provider).toBe("ddgs");
    expect(DEFAULT_WEB_CONFIG.maxResponseBytes).toBe(1_048_576);
    expect(DEFAULT_WEB_CONFIG.maxContentChars).toBe(30_000);
    expect(DEFAULT_WEB_CONFIG.cache).toEqual({ enabled: true, maxEntries: 50, ttlMs: 300_000 });
    expect(DEFAULT_WEB_CONFIG.allowHosts).toEqual([]);
    expect(DEFAULT_WEB_CONFIG.jina.baseUrl).toBe("https://r.jina.ai/");
  });

  it("merges layers deeply, later layers winning", () => {
    const r = resolveConfig(WebConfigSchema, { cache: { ttlMs: 120_000 } }, { cache: { enabled: false }, allowHosts: ["127.0.0.2"] });
    expect(r.ok && r.value.cache).toEqual({ enabled: false, maxEntries: 50, ttlMs: 120_000 });
    expect(r.ok && r.value.allowHosts).toEqual(["127.0.0.2"]);
  });

  it("lets a later layer reset a key to the default with null", () => {
    const r = resolveConfig(WebConfigSchema, { maxResults: 8, cache: { ttlMs: 120_000 } }, { maxResults: null, cache: { ttlMs: null } });
    expect(r.ok && r.value.maxResults).toBe(5);
    expect(r.ok && r.value.cache.ttlMs).toBe(300_000);
  });

  it("rejects wrong types with field paths", () => {
    const r = resolveConfig(WebConfigSchema, { timeoutMs: "fast", concurrency: { maxConcurrent: 0 } });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error.fields).toEqual(["timeoutMs", "concurrency.maxConcurrent"]);
  });

  it("reads domain lists trimmed, lower-cased and without their final dots, however many", () => {
    const r = resolveConfig(WebConfigSchema, { deniedDomains: [" Example.COM.. ", `a${".".repeat(300_000)}b.test.`] });
    expect(r.ok && r.value.deniedDomains).toEqual(["example.com", `a${".".repeat(300_000)}b.test`]);
  });

  it("drops unknown and duplicate provider names from providerPriority", () => {
    const r = resolveConfig(WebConfigSchema, { providerPriority: ["bing", "ddgs", "DDGS", "brave"] });
    expect(r.ok && r.value.providerPriority).toEqual(["ddgs", "brave"]);
  });
});

describe("error codes and protocol", () => {
  it("lists the 16 canonical codes with status and recovery", () => {
    expect(Object.keys(WEB_ERROR_CODES)).toHaveLength(16);
    expect(WEB_ERROR_CODES.CONTENT_FETCH_TOO_LARGE.status).toBe("reserved");
    expect(WEB_ERROR_CODES.PROVIDER_RATE_LIMITED.recovery).toBe("retry");
  });

  it("accepts the same major version and no declaration", () => {
    expect(isCompatibleProtocolVersion(undefined)).toBe(true);
    expect(isCompatibleProtocolVersion("0.9.1")).toBe(true);
    expect(isCompatibleProtocolVersion("1.0.0")).toBe(false);
  });
});
