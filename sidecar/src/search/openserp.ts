import { ok } from "@edge-web/shared";
import * as v from "valibot";
import { keySetting } from "./key-setting.ts";
import { keyedUsable } from "./keyed-usable.ts";
import type { SearchProvider } from "./provider.ts";
import { requestProviderJson } from "./request-provider-json.ts";
import { RawItemsSchema, toSearchResults } from "./to-search-results.ts";
import { withQuery } from "./with-query.ts";

const PROVIDER = { name: "openserp", label: "OpenSERP (openserp)" } as const;
/** The result list: older versions answer `organic_results`, newer ones `results`. */
const OpenSerpAnswerSchema = v.union([
  v.pipe(v.looseObject({ organic_results: RawItemsSchema }), v.transform((answer) => answer.organic_results)),
  v.pipe(v.looseObject({ results: RawItemsSchema }), v.transform((answer) => answer.results)),
]);

/** OpenSERP, hosted or self-hosted; a self-hosted instance may need no key. */
export const openserp: SearchProvider = {
  ...PROVIDER,
  usable: (settings) => keyedUsable(PROVIDER, settings.openserp, false),
  async search(query, numResults, settings, ctx, signal) {
    const config = settings.openserp;
    const answer = await requestProviderJson(
      PROVIDER,
      {
        url: withQuery(config.baseUrl, { q: query, num: String(numResults) }),
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
      source: PROVIDER.name,
    }));
    return ok(toSearchResults(candidates, numResults));
  },
};
