import { ok } from "@edge-web/shared";
import * as v from "valibot";
import { keySetting } from "./key-setting.ts";
import { keyedUsable } from "./keyed-usable.ts";
import type { SearchProvider } from "./provider.ts";
import { requestProviderJson } from "./request-provider-json.ts";
import { RawItemsSchema, toSearchResults } from "./to-search-results.ts";
import { withSiteOperators } from "./with-site-operators.ts";

const PROVIDER = { name: "serper", label: "Serper (serper)" } as const;
/** Google's `tbs` time filter: past day, week, month, year. */
const TBS = { day: "qdr:d", week: "qdr:w", month: "qdr:m", year: "qdr:y" } as const;
/** Google's organic results; left out when there are none. */
const SerperAnswerSchema = v.looseObject({ organic: v.optional(RawItemsSchema) });

/** Serper's Google search API (POST JSON, X-API-KEY). */
export const serper: SearchProvider = {
  ...PROVIDER,
  domains: "query",
  recencies: ["day", "week", "month", "year"],
  usable: (settings) => keyedUsable(PROVIDER, settings.serper, true),
  async search(query, settings, ctx, signal) {
    const config = settings.serper;
    const answer = await requestProviderJson(
      PROVIDER,
      {
        url: config.baseUrl,
        method: "POST",
        headers: { "X-API-KEY": config.apiKey ?? "" },
        json: { q: withSiteOperators(query), num: query.numResults, ...(query.recency && { tbs: TBS[query.recency] }) },
        refusedHint: () => `check its API key (${keySetting(PROVIDER.name, config)}).`,
      },
      SerperAnswerSchema,
      ctx,
      signal,
    );
    if (!answer.ok) return answer;
    const items = answer.value.organic ?? [];
    const candidates = items.map((item) => ({ title: item.title, url: item.link, snippet: item.snippet, published: item.date, source: PROVIDER.name }));
    return ok(toSearchResults(candidates, query.now));
  },
};
