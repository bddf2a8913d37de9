import { PROVIDER_NAMES, type SearchKeys, type WebConfigInput } from "@edge-web/shared";
import { describe, expect, it } from "vitest";
import { searchWeb } from "../src/search/search-web.ts";
import { KEYS, RETRY_AFTER, searchRequest, useFakeSearch } from "./support/fake-providers.ts";

const stage = useFakeSearch();

async function search(web: WebConfigInput = {}, keys: SearchKeys = KEYS) {
  return stage.watch.record(await searchWeb(searchRequest(stage.providers, web, { keys }), stage.deps));
}
/** The providers asked, in order. */
const asked = () => stage.providers.log.map((request) => request.provider);
const failAll = (status: number) => {
  for (const name of PROVIDER_NAMES) stage.providers.fakes[name].behave(status);
};

describe("auto mode", () => {
  it("walks commercial, then self-hosted, then DuckDuckGo, and answers the last error when all fail", async () => {
    failAll(500);
    stage.providers.fakes.ddgs.behave(429);
    const answer = await search();
    expect(asked()).toEqual(["tavily", "serper", "brave", "openserp", "searxng", "ddgs"]);
    expect(answer).toMatchObject({ ok: false, error: { code: "PROVIDER_RATE_LIMITED", message: expect.stringMatching(/DuckDuckGo/) }, retryAfter: RETRY_AFTER });
  });

  it("orders each tier by providerPriority, unlisted providers after in the default order", async () => {
    failAll(503);
    stage.providers.fakes.ddgs.behave("reset");
    const answer = await search({ providerPriority: ["ddgs", "searxng", "brave", "tavily"] });
    // Tiers come first: ddgs leads the priority list but is still asked last.
    expect(asked()).toEqual(["brave", "tavily", "serper", "searxng", "openserp", "ddgs"]);
    expect(!answer.ok && answer.error.code).toBe("NETWORK_ERROR");
  });

  it("stops at the first provider that answers and says which one it was", async () => {
    stage.providers.fakes.tavily.behave("reset");
    stage.providers.fakes.serper.behave(401);
    const answer = await search({ timeoutMs: 300 });
    expect(asked()).toEqual(["tavily", "serper", "brave"]);
    expect(answer.ok && answer.value.provider).toBe("brave");
    expect(answer.ok && answer.value.results.map((r) => r.source)).toEqual(["brave", "brave", "brave"]);
  });

  it("answers WEB_SEARCH_TIMEOUT within web.timeoutMs when a provider hangs: the deadline covers the whole search", async () => {
    stage.providers.fakes.tavily.behave("hang");
    const started = Date.now();
    const answer = await search({ timeoutMs: 300 });
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(asked()).toEqual(["tavily"]);
    expect(!answer.ok && answer.error).toMatchObject({ code: "WEB_SEARCH_TIMEOUT", message: expect.stringMatching(/within 300 ms/) });
  });

  it("gives later providers the time a budget leaves", async () => {
    stage.providers.fakes.tavily.behave("hang");
    const request = { ...searchRequest(stage.providers, { timeoutMs: 300 }, { keys: KEYS }), budgetMs: 2_000 };
    const answer = stage.watch.record(await searchWeb(request, stage.deps));
    expect(asked()).toEqual(["tavily", "serper"]);
    expect(answer.ok && answer.value.provider).toBe("serper");
  });

  it("moves on after unusable answers too: malformed, wrong shape, oversized", async () => {
    stage.providers.fakes.tavily.behave("malformed");
    stage.providers.fakes.serper.behave("wrong-shape");
    stage.providers.fakes.brave.behave("oversized");
    stage.providers.fakes.openserp.behave("empty");
    const answer = await search({ maxResponseBytes: 8_192 });
    expect(asked()).toEqual(["tavily", "serper", "brave", "openserp"]);
    expect(answer).toEqual({ ok: true, value: { provider: "openserp", results: [] } });
  });

  it("stops walking when the caller aborts, answering the interrupted provider's error", async () => {
    stage.providers.fakes.tavily.behave("hang");
    const controller = new AbortController();
    const arrived = stage.providers.fakes.tavily.nextRequest();
    const pending = searchWeb(searchRequest(stage.providers, {}, { keys: KEYS }), stage.deps, controller.signal);
    await arrived;
    controller.abort();
    const answer = stage.watch.record(await pending);
    expect(asked()).toEqual(["tavily"]);
    expect(!answer.ok && answer.error).toEqual({ code: "WEB_SEARCH_TIMEOUT", message: "The search with Tavily (tavily) was cancelled." });
  });

  it("silently skips providers that are not enabled, lack a key or have no instance", async () => {
    const answer = await search(
      {
        tavily: { enabled: false },
        openserp: { enabled: false },
        searxng: { baseUrl: "" },
      },
      { brave: KEYS.brave },
    );
    expect(asked()).toEqual(["brave"]);
    expect(answer.ok && answer.value.provider).toBe("brave");
    stage.providers.reset();
    const zeroConfig = await search({ brave: { enabled: false }, tavily: { enabled: false }, openserp: { enabled: false }, searxng: { enabled: false } }, {});
    expect(asked()).toEqual(["ddgs"]);
    expect(zeroConfig.ok && zeroConfig.value.provider).toBe("ddgs");
  });

  it("asks a keyless self-hosted OpenSERP", async () => {
    stage.providers.fakes.searxng.behave(500);
    const answer = await search({ brave: { enabled: false }, tavily: { enabled: false }, serper: { enabled: false } }, {});
    expect(asked()).toEqual(["openserp"]);
    expect(answer.ok && answer.value.provider).toBe("openserp");
  });
});

describe("an explicit provider", () => {
  it.each(PROVIDER_NAMES)("%s is the only one asked, even when it fails", async (name) => {
    stage.providers.fakes[name].behave(503);
    const answer = await search({ provider: name });
    expect(asked()).toEqual([name]);
    expect(!answer.ok && answer.error.code).toBe("PROVIDER_UNAVAILABLE");
  });

  it.each([
    ["brave", "BRAVE_SEARCH_API_KEY or brave.apiKey via /api/config/auth"],
    ["tavily", "TAVILY_API_KEY or tavily.apiKey via /api/config/auth"],
    ["serper", "SERPER_API_KEY or serper.apiKey via /api/config/auth"],
  ] as const)("%s without a key is PROVIDER_AUTH_FAILED naming where to set one", async (name, where) => {
    const answer = await search({ provider: name }, {});
    // The service lacks the key, so it is this service that is unavailable (503), not the provider.
    expect(!answer.ok && answer.error).toEqual({ code: "PROVIDER_AUTH_FAILED", message: expect.stringContaining(where), details: { fault: "unavailable" } });
    expect(asked()).toEqual([]);
  });

  it("names the configured key variable when web.<name>.apiKeyEnv changes it", async () => {
    const answer = await search({ provider: "tavily", tavily: { apiKeyEnv: "MY_TAVILY_API_KEY" } }, {});
    expect(!answer.ok && answer.error.message).toContain("MY_TAVILY_API_KEY or tavily.apiKey");
  });

  it.each(["brave", "tavily", "serper", "openserp", "searxng"] as const)("%s that is not enabled is INVALID_INPUT naming the flag", async (name) => {
    const answer = await search({ provider: name, [name]: { enabled: false } });
    expect(!answer.ok && answer.error).toEqual({ code: "INVALID_INPUT", message: expect.stringContaining(`set web.${name}.enabled to true`) });
    expect(asked()).toEqual([]);
  });

  it("searxng without an instance URL is INVALID_INPUT naming web.searxng.baseUrl", async () => {
    const answer = await search({ provider: "searxng", searxng: { baseUrl: "" } });
    expect(!answer.ok && answer.error).toEqual({ code: "INVALID_INPUT", message: expect.stringContaining("web.searxng.baseUrl") });
    expect(asked()).toEqual([]);
  });

  it("ddgs needs no setup", async () => {
    const answer = await search({ provider: "ddgs" }, {});
    expect(answer.ok && answer.value.provider).toBe("ddgs");
  });
});

describe("keys", () => {
  it("never appear in any answer or log of this file", () => {
    expect(stage.watch.count()).toBeGreaterThan(20);
    expect(stage.watch.leaks()).toEqual([]);
  });
});
