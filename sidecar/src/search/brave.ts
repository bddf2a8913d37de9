import { ok } from "@edge-web/shared";
import * as v from "valibot";
import { htmlToText } from "./html-to-text.ts";
import { keySetting } from "./key-setting.ts";
import { keyedUsable } from "./keyed-usable.ts";
import type { SearchProvider } from "./provider.ts";
import { requestProviderJson } from "./request-provider-json.ts";
import { RawItemsSchema, toSearchResults } from "./to-search-results.ts";
import { withQuery } from "./with-query.ts";
import { withSiteOperators } from "./with-site-operators.ts";

const PROVIDER = { name: "brave", label: "Brave Search (brave)" } as const;
/** Brave answers at most 20 results per request. */
const MAX_COUNT = 20;
/** Brave's `freshness`: past day, week, month, year. */
const FRESHNESS = { day: "pd", week: "pw", month: "pm", year: "py" } as const;
/** Brave leaves out `web` when nothing matched. */
const BraveAnswerSchema = v.looseObject({ web: v.optional(v.looseObject({ results: RawItemsSchema })) });

/** Brave Search's web search API; titles and descriptions carry highlighting tags and entities. */
export const brave: SearchProvider = {
  ...PROVIDER,
  domains: "query",
  recencies: ["day", "week", "month", "year"],
  usable: (settings) => keyedUsable(PROVIDER, settings.brave, true),
  async search(query, settings, ctx, signal) {
    const config = settings.brave;
    const answer = await requestProviderJson(
      PROVIDER,
      {
        url: withQuery(config.baseUrl, {
          q: withSiteOperators(query),
          count: String(Math.min(query.numResults, MAX_COUNT)),
          ...(query.recency && { freshness: FRESHNESS[query.recency] }),
        }),
        headers: { "X-Subscription-Token": config.apiKey ?? "" },
        refusedHint: () => `check its API key (${keySetting(PROVIDER.name, config)}).`,
      },
      BraveAnswerSchema,
      ctx,
      signal,
    );
    if (!answer.ok) return answer;
    const items = answer.value.web?.results ?? [];
    const candidates = items.map((item) => ({
      title: htmlToText(item.title),
      url: item.url,
      snippet: htmlToText(item.description),
      // page_age is the page's own date (ISO, no zone); age is Brave's display of it ("2 days ago", "March 5, 2024").
      published: item.page_age ?? item.age,
      source: PROVIDER.name,
    }));
    return ok(toSearchResults(candidates, query.now));
  },
};
