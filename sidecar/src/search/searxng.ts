import { fail, ok, withoutTrailing } from "@edge-web/shared";
import * as v from "valibot";
import type { SearchProvider } from "./provider.ts";
import { requestProviderJson } from "./request-provider-json.ts";
import { RawItemsSchema, toSearchResults } from "./to-search-results.ts";
import { withQuery } from "./with-query.ts";
import { withSiteOperators } from "./with-site-operators.ts";

const PROVIDER = { name: "searxng", label: "SearXNG (searxng)" } as const;
/** SearXNG documents day, month and year; a week is asked as the month and held to the week here. */
const TIME_RANGE = { day: "day", week: "month", month: "month", year: "year" } as const;
const SearxngAnswerSchema = v.looseObject({ results: RawItemsSchema });

/** `{baseUrl}/search`, keeping any path the instance is mounted under. */
function searchEndpoint(baseUrl: string): string {
  const url = URL.parse(baseUrl);
  if (!url) return baseUrl;
  url.pathname = `${withoutTrailing(url.pathname, "/")}/search`;
  return url.href;
}

function refusedHint(status: number): string {
  // SearXNG answers 403 to format=json unless its settings allow JSON output.
  return status === 403
    ? "the instance has JSON output turned off; add `json` to `search.formats` in its settings.yml and restart it."
    : "the instance requires authentication; open it to this server or put it behind no login.";
}

/** A self-hosted SearXNG instance's JSON API; each result names the engine that found it. */
export const searxng: SearchProvider = {
  ...PROVIDER,
  domains: "query",
  recencies: ["day", "month", "year"],
  usable(settings) {
    const config = settings.searxng;
    if (!config.enabled) return fail("INVALID_INPUT", `${PROVIDER.label} is not enabled: set web.searxng.enabled to true, or choose another provider.`).error;
    if (config.baseUrl === "") return fail("INVALID_INPUT", `${PROVIDER.label} has no instance: set web.searxng.baseUrl to its URL, or choose another provider.`).error;
    return true;
  },
  async search(query, settings, ctx, signal) {
    const config = settings.searxng;
    const params = {
      q: withSiteOperators(query),
      format: "json",
      pageno: "1",
      language: "en",
      categories: "general",
      ...(config.defaultEngine && { engines: config.defaultEngine }),
      ...(query.recency && { time_range: TIME_RANGE[query.recency] }),
    };
    const answer = await requestProviderJson(PROVIDER, { url: withQuery(searchEndpoint(config.baseUrl), params), refusedHint }, SearxngAnswerSchema, ctx, signal);
    if (!answer.ok) return answer;
    const candidates = answer.value.results.map((item) => ({
      title: item.title,
      url: item.url,
      snippet: item.content,
      published: item.publishedDate,
      source: typeof item.engine === "string" && item.engine !== "" ? item.engine : PROVIDER.name,
    }));
    return ok(toSearchResults(candidates, query.now));
  },
};
