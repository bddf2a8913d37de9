import { PROVIDER_NAMES, RECENCIES, type ProviderName, type Recency } from "@edge-web/shared";
import { describe, expect, it } from "vitest";
import { searchWeb } from "../src/search/search-web.ts";
import { searchRequest, useFakeSearch } from "./support/fake-providers.ts";

const stage = useFakeSearch();
const DAY_MS = 86_400_000;

async function search(provider: ProviderName, recency?: Recency) {
  const request = { ...searchRequest(stage.providers, { provider }), ...(recency && { recency }) };
  return stage.watch.record(await searchWeb(request, stage.deps));
}
const onlyRequest = (name: ProviderName) => {
  const { requests } = stage.providers.fakes[name];
  expect(requests).toHaveLength(1);
  return requests[0]!;
};
const fake = (name: ProviderName) => stage.providers.fakes[name];

/** Each provider's own parameter for each window, as its documentation gives it. */
const NATIVE: Record<Exclude<ProviderName, "openserp">, (name: ProviderName) => unknown> = {
  ddgs: (name) => onlyRequest(name).query.df,
  brave: (name) => onlyRequest(name).query.freshness,
  serper: (name) => JSON.parse(onlyRequest(name).body).tbs,
  tavily: (name) => JSON.parse(onlyRequest(name).body).time_range,
  searxng: (name) => onlyRequest(name).query.time_range,
};
const EXPECTED: Record<keyof typeof NATIVE, Record<Recency, string>> = {
  ddgs: { day: "d", week: "w", month: "m", year: "y" },
  brave: { day: "pd", week: "pw", month: "pm", year: "py" },
  serper: { day: "qdr:d", week: "qdr:w", month: "qdr:m", year: "qdr:y" },
  tavily: { day: "day", week: "week", month: "month", year: "year" },
  // SearXNG documents day, month and year only: a week is asked as the month.
  searxng: { day: "day", week: "month", month: "month", year: "year" },
};
const cases = (Object.keys(NATIVE) as (keyof typeof NATIVE)[]).flatMap((name) => RECENCIES.map((recency) => [name, recency] as const));

describe("recency reaches each provider as its own parameter", () => {
  it.each(cases)("%s, %s", async (name, recency) => {
    const answer = await search(name, recency);
    expect(answer.ok).toBe(true);
    expect(NATIVE[name](name)).toBe(EXPECTED[name][recency]);
  });

  it.each(RECENCIES)("openserp, %s: its date range, YYYYMMDD..YYYYMMDD, reaching back the window's days", async (recency) => {
    await search("openserp", recency);
    const range = onlyRequest("openserp").query.date ?? "";
    expect(range).toMatch(/^\d{8}\.\.\d{8}$/);
    const [from, to] = range.split("..").map((day) => Date.parse(`${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6)}`));
    expect((to! - from!) / DAY_MS).toBe({ day: 1, week: 7, month: 31, year: 366 }[recency]);
  });

  it.each(PROVIDER_NAMES)("%s: without recency no time parameter is sent", async (name) => {
    await search(name);
    const request = onlyRequest(name);
    for (const param of ["df", "freshness", "time_range", "date"]) expect(request.query).not.toHaveProperty(param);
    if (request.body) expect(JSON.parse(request.body)).not.toHaveProperty(name === "serper" ? "tbs" : "time_range");
  });
});

describe("applied.recency", () => {
  it.each(PROVIDER_NAMES.filter((name) => name !== "ddgs"))("%s: a window its parameter expresses is the provider's: its dated results are kept as it answered them", async (name) => {
    fake(name).behave("dated");
    const answer = await search(name, "month");
    expect(answer.ok && answer.value.applied).toEqual({ [name]: { recency: "provider" } });
    expect(answer.ok && answer.value.results).toHaveLength(3);
  });

  it("searxng, week: asked for the month, then results dated before the week are dropped and undated ones kept", async () => {
    fake("searxng").behave("dated");
    const answer = await search("searxng", "week");
    expect(answer.ok && answer.value.applied).toEqual({ searxng: { recency: "filtered" } });
    expect(answer.ok && answer.value.results.map((result) => result.url)).toEqual(["https://www.rust-lang.org/", "https://doc.rust-lang.org/book/"]);
  });

  it("searxng, week: when no result carries a date nothing could be checked, and the answer says so", async () => {
    const answer = await search("searxng", "week");
    expect(answer.ok && answer.value.applied).toEqual({ searxng: { recency: "unsupported" } });
    expect(answer.ok && answer.value.results).toHaveLength(3);
  });

  it("recency and domains together each have their entry", async () => {
    fake("searxng").behave("dated");
    const request = { ...searchRequest(stage.providers, { provider: "searxng" }), recency: "week" as const, includeDomains: ["wikipedia.org"], excludeDomains: [] };
    const answer = stage.watch.record(await searchWeb(request, stage.deps));
    // The Wikipedia page is 20 days old, so the week drops it; the domains then drop the two rust-lang.org pages left.
    expect(answer.ok && answer.value).toMatchObject({ results: [], applied: { searxng: { recency: "filtered", domains: "filtered" } } });
  });
});

describe("publishedDate", () => {
  it.each(PROVIDER_NAMES.filter((name) => name !== "ddgs"))("%s: its dates as ISO 8601, relative ones counted back from the answer's time", async (name) => {
    fake(name).behave("dated");
    const before = Date.now();
    const answer = await search(name);
    const after = Date.now();
    expect(answer.ok).toBe(true);
    if (!answer.ok) return;
    const [recent, older, undated] = answer.value.results;
    for (const [result, days] of [[recent, 2], [older, 20]] as const) {
      expect(result?.publishedDate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      const ms = Date.parse(result!.publishedDate!);
      // Written to the second, so allow that much below the bound.
      expect(ms).toBeGreaterThanOrEqual(before - days * DAY_MS - 1_000);
      expect(ms).toBeLessThanOrEqual(after - days * DAY_MS);
    }
    expect(undated).not.toHaveProperty("publishedDate");
  });

  it("ddgs: DuckDuckGo Lite gives no dates, so its results carry none", async () => {
    const answer = await search("ddgs");
    expect(answer.ok && answer.value.results.some((result) => "publishedDate" in result)).toBe(false);
  });

  it("keys never appear in any answer or log of this file", () => {
    expect(stage.watch.leaks()).toEqual([]);
  });
});
