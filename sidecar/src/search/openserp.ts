import { ok } from "@edge-web/shared";
import * as v from "valibot";
import { keySetting } from "./key-setting.ts";
import { keyedUsable } from "./keyed-usable.ts";
import type { SearchProvider } from "./provider.ts";
import { requestProviderJson } from "./request-provider-json.ts";
import { RawItemsSchema, toSearchResults } from "./to-search-results.ts";
import { withQuery } from "./with-query.ts";
import { withSiteOperators } from "./with-site-operators.ts";

const PROVIDER = { name: "openserp", label: "OpenSERP (openserp)" } as const;
/** The result list: older versions answer `organic_results`, newer ones `results`. */
const OpenSerpAnswerSchema = v.union([
  v.pipe(v.looseObject({ organic_results: RawItemsSchema }), v.transform((answer) => answer.organic_results)),
  v.pipe(v.looseObject({ results: RawItemsSchema }), v.transform((answer) => answer.results)),
]);

const DAY_MS = 86_400_000;
/** Days back each recency window reaches in OpenSERP's `date` range. */
const DAYS = { day: 1, week: 7, month: 31, year: 366 } as const;
const yyyymmdd = (ms: number) => new Date(ms).toISOString().slice(0, 10).replaceAll("-", "");

/** OpenSERP, hosted or self-hosted; a self-hosted instance may need no key. */
export const openserp: SearchProvider = {
  ...PROVIDER,
  domains: "query",
  recencies: ["day", "week", "month", "year"],
  usable: (settings) => keyedUsable(PROVIDER, settings.openserp, false),
  async search(query, settings, ctx, signal) {
    const config = settings.openserp;
    const answer = await requestProviderJson(
      PROVIDER,
      {
        url: withQuery(config.baseUrl, {
          q: withSiteOperators(query),
          num: String(query.numResults),
          // Its date range: YYYYMMDD..YYYYMMDD, both ends included.
          ...(query.recency && { date: `${yyyymmdd(query.now - DAYS[query.recency] * DAY_MS)}..${yyyymmdd(query.now)}` }),
        }),
        // Deployments differ in which header they read, so the key goes in both.
        ...(config.apiKey && { headers: { Authorization: `Bearer ${config.apiKey}`, "x-api-key": config.apiKey } }),
        refusedHint: () => `check its API key (${keySetting(PROVIDER.name, config)}), or whether the instance accepts requests from this server.`,
      },
      OpenSerpAnswerSchema,
      ctx,
      signal,
    );
    if (!answer.ok) return answer;
    const candidates = answer.value.map((item) => ({
      title: item.title,
      url: item.url ?? item.link,
      snippet: item.snippet ?? item.description,
      published: item.date ?? item.published_date,
      source: PROVIDER.name,
    }));
    return ok(toSearchResults(candidates, query.now));
  },
};
