import { fail, ok } from "@edge-web/shared";
import { parseDdgLite } from "./parse-ddg-lite.ts";
import type { SearchProvider } from "./provider.ts";
import { requestProvider } from "./request-provider.ts";
import { toSearchResults } from "./to-search-results.ts";
import { withQuery } from "./with-query.ts";
import { withSiteOperators } from "./with-site-operators.ts";

const PROVIDER = { name: "ddgs", label: "DuckDuckGo (ddgs)" } as const;
/** DuckDuckGo's `df`: past day, week, month, year. */
const DF = { day: "d", week: "w", month: "m", year: "y" } as const;

/** DuckDuckGo Lite's HTML results page: no key, no setup. */
export const ddgs: SearchProvider = {
  ...PROVIDER,
  domains: "query",
  recencies: ["day", "week", "month", "year"],
  usable: () => true,
  async search(query, settings, ctx, signal) {
    const answer = await requestProvider(
      PROVIDER,
      {
        url: withQuery(settings.ddgs.baseUrl, { q: withSiteOperators(query), ...(query.recency && { df: DF[query.recency] }) }),
        headers: { Accept: "text/html" },
        refusedHint: () => "DuckDuckGo is refusing requests from this server; retry later or configure another provider.",
      },
      ctx,
      signal,
    );
    if (!answer.ok) return answer;
    // DuckDuckGo throttles with a 202 and a challenge page instead of results.
    if (answer.value.status === 202) {
      return fail("PROVIDER_RATE_LIMITED", `${PROVIDER.label} is rate limiting this service (it answered a challenge page); retry later or configure another provider.`);
    }
    return ok(toSearchResults(parseDdgLite(answer.value.text), query.now));
  },
};
