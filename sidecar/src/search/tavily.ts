import { ok } from "@edge-web/shared";
import * as v from "valibot";
import { keySetting } from "./key-setting.ts";
import { keyedUsable } from "./keyed-usable.ts";
import type { SearchProvider } from "./provider.ts";
import { requestProviderJson } from "./request-provider-json.ts";
import { RawItemsSchema, toSearchResults } from "./to-search-results.ts";

const PROVIDER = { name: "tavily", label: "Tavily (tavily)" } as const;
/** Tavily's max_results tops out at 20. */
const MAX_RESULTS = 20;
const TavilyAnswerSchema = v.looseObject({ results: RawItemsSchema });

/** Tavily's search API (POST JSON, bearer key). */
export const tavily: SearchProvider = {
  ...PROVIDER,
  domains: "provider",
  // Tavily's time_range takes the same four words.
  recencies: ["day", "week", "month", "year"],
  usable: (settings) => keyedUsable(PROVIDER, settings.tavily, true),
  async search(query, settings, ctx, signal) {
    const config = settings.tavily;
    const answer = await requestProviderJson(
      PROVIDER,
      {
        url: config.baseUrl,
        method: "POST",
        headers: { Authorization: `Bearer ${config.apiKey ?? ""}` },
        json: {
          query: query.text,
          max_results: Math.min(query.numResults, MAX_RESULTS),
          ...(query.recency && { time_range: query.recency }),
          ...(query.includeDomains.length > 0 && { include_domains: query.includeDomains }),
          ...(query.excludeDomains.length > 0 && { exclude_domains: query.excludeDomains }),
        },
        refusedHint: () => `check its API key (${keySetting(PROVIDER.name, config)}).`,
      },
      TavilyAnswerSchema,
      ctx,
      signal,
    );
    if (!answer.ok) return answer;
    const candidates = answer.value.results.map((item) => ({ title: item.title, url: item.url, snippet: item.content, published: item.published_date, source: PROVIDER.name }));
    return ok(toSearchResults(candidates, query.now));
  },
};
