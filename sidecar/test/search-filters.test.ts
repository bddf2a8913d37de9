import { PROVIDER_NAMES, type ProviderName, type SearchFilters } from "@edge-web/shared";
import { describe, expect, it } from "vitest";
import { searchWeb } from "../src/search/search-web.ts";
import { searchRequest, useFakeSearch } from "./support/fake-providers.ts";

const stage = useFakeSearch();

/** One search with an explicit provider and filters; every answer is kept for the key-leak check. */
async function search(provider: ProviderName, filters: SearchFilters) {
  const request = { ...searchRequest(stage.providers, { provider }), includeDomains: filters.includeDomains ?? [], excludeDomains: filters.excludeDomains ?? [] };
  return stage.watch.record(await searchWeb(request, stage.deps));
}
const onlyRequest = (name: ProviderName) => {
  const { requests } = stage.providers.fakes[name];
  expect(requests).toHaveLength(1);
  return requests[0]!;
};
/** The query text each provider's request carried. */
const sentQuery = (name: ProviderName): string => {
  const request = onlyRequest(name);
  if (name === "tavily") return JSON.parse(request.body).query;
  if (name === "serper") return JSON.parse(request.body).q;
  return request.query.q ?? "";
};
const QUERY_PROVIDERS = PROVIDER_NAMES.filter((name) => name !== "tavily");

describe("domain filters reach each provider as it takes them", () => {
  it.each(QUERY_PROVIDERS)("%s: as site: operators in the query", async (name) => {
    await search(name, { includeDomains: ["rust-lang.org", "wikipedia.org"], excludeDomains: ["pinterest.com", "quora.com"] });
    expect(sentQuery(name)).toBe("rust programming (site:rust-lang.org OR site:wikipedia.org) -site:pinterest.com -site:quora.com");
  });

  it.each(QUERY_PROVIDERS)("%s: one included domain needs no parentheses", async (name) => {
    await search(name, { includeDomains: ["docs.python.org"] });
    expect(sentQuery(name)).toBe("rust programming site:docs.python.org");
  });

  it("tavily: as include_domains and exclude_domains, the query left as it is", async () => {
    await search("tavily", { includeDomains: ["rust-lang.org"], excludeDomains: ["pinterest.com"] });
    expect(JSON.parse(onlyRequest("tavily").body)).toEqual({ query: "rust programming", max_results: 10, include_domains: ["rust-lang.org"], exclude_domains: ["pinterest.com"] });
  });

  it.each(PROVIDER_NAMES)("%s: without filters the request carries none and the answer says nothing of them", async (name) => {
    const answer = await search(name, {});
    expect(sentQuery(name)).toBe("rust programming");
    if (name === "tavily") expect(JSON.parse(onlyRequest(name).body)).not.toHaveProperty("include_domains");
    expect(answer.ok && answer.value).not.toHaveProperty("applied");
  });
});

describe("domain filters are enforced on the results, whatever the provider did", () => {
  // The fakes ignore every filter, as a provider whose engine drops operators would.
  it.each(PROVIDER_NAMES)("%s: only results inside includeDomains (subdomains included) are answered, and applied says filtered", async (name) => {
    const answer = await search(name, { includeDomains: ["Rust-Lang.ORG"] });
    expect(answer.ok).toBe(true);
    if (!answer.ok) return;
    const hosts = answer.value.results.map((result) => new URL(result.url).hostname);
    expect(hosts.length).toBeGreaterThan(0);
    for (const host of hosts) expect(host === "rust-lang.org" || host.endsWith(".rust-lang.org")).toBe(true);
    // Brave's fake answers rust-lang.org pages only: nothing was dropped, so the operators held.
    expect(answer.value.applied).toEqual({ [name]: { domains: name === "brave" ? "query" : "filtered" } });
  });

  // Every fake answers www.rust-lang.org first; excluding that host keeps its parent domain's other hosts.
  it.each(PROVIDER_NAMES)("%s: results inside excludeDomains are dropped", async (name) => {
    const answer = await search(name, { excludeDomains: ["www.rust-lang.org"] });
    expect(answer.ok && answer.value.results.length).toBeGreaterThan(0);
    expect(answer.ok && answer.value.results.filter((result) => result.url.startsWith("https://www.rust-lang.org/"))).toEqual([]);
    expect(answer.ok && answer.value.applied).toEqual({ [name]: { domains: "filtered" } });
  });

  it("a domain covers its subdomains, not names that merely end the same way", async () => {
    const answer = await search("ddgs", { includeDomains: ["lang.org"] });
    expect(answer.ok && answer.value.results).toEqual([]);
  });

  it.each(PROVIDER_NAMES)("%s: when nothing had to be dropped, applied says how the provider took the filters", async (name) => {
    const answer = await search(name, { excludeDomains: ["pinterest.com"] });
    expect(answer.ok && answer.value.applied).toEqual({ [name]: { domains: name === "tavily" ? "provider" : "query" } });
  });

  it("the cut to numResults comes after the filter, so filtered results do not use up the count", async () => {
    const request = { ...searchRequest(stage.providers, { provider: "ddgs" }, { numResults: 2 }), includeDomains: ["rust-lang.org"], excludeDomains: [] };
    const answer = stage.watch.record(await searchWeb(request, stage.deps));
    expect(answer.ok && answer.value.results.map((result) => result.url)).toEqual(["https://www.rust-lang.org/", "https://doc.rust-lang.org/book/"]);
  });

  it("keys never appear in any answer or log of this file", () => {
    expect(stage.watch.leaks()).toEqual([]);
  });
});
