import {
  fail,
  MAX_SEARCH_RESULTS,
  ok,
  searchRequestFrom,
  WebSearchParamsSchema,
  type QueryResultData,
  type Result,
  type SearchResult,
  type WebSearchSuccess,
} from "@edge-web/shared";
import { searchCacheKey } from "../cache/search-cache-key.ts";
import { capStoredContent } from "../session/cap-stored-content.ts";
import { fetchPage } from "./fetch-page.ts";
import { mapLimited } from "./map-limited.ts";
import { mergeInputs } from "./merge-inputs.ts";
import { sessionBusy } from "./session-busy.ts";
import type { Tool, ToolAnswer, ToolContext } from "./tool.ts";

const MAX_QUERIES = 5;

export const webSearchTool: Tool<typeof WebSearchParamsSchema, WebSearchSuccess> = {
  name: "web_search",
  description:
    "Search the web through the configured provider. Pass `query` or up to 5 `queries`; `numResults` per query (default and maximum web.maxResults); `includeContent: true` also fetches each result's page as Markdown.",
  params: WebSearchParamsSchema,
  async run(params, ctx) {
    const queries = mergeInputs(params.query, params.queries).slice(0, MAX_QUERIES);
    if (queries.length === 0) {
      return fail("WEB_SEARCH_INVALID_QUERY", "Pass `query` (a string) or `queries` (an array of strings) with at least one non-empty search query.", ["query"]);
    }
    const numResults = clampResults(params.numResults, ctx.config.maxResults);

    const answers = await Promise.all(queries.map((query) => searchOne(ctx, query, numResults)));
    const failure = answers.find((a) => !a.result.ok);
    if (failure && !failure.result.ok) {
      const { code, message } = failure.result.error;
      return { ...fail(code, message), ...(failure.retryAfter && { headers: { "retry-after": failure.retryAfter } }) };
    }
    const data: QueryResultData[] = answers.map((a, i) => ({ query: queries[i]!, results: a.result.ok ? a.result.value : [] }));
    if (params.includeContent) await attachContent(ctx, data);

    const responseId = ctx.newResponseId();
    ctx.store.save(capStoredContent({ kind: "search", responseId, queries: data }, ctx.config.maxStoredContentChars), ctx.config.maxStoredResults);
    const answer: ToolAnswer<WebSearchSuccess> = ok({ responseId, queries: data });
    if (ctx.config.cache.enabled) answer.headers = { "x-cache": answers.every((a) => a.cached) ? "HIT" : "MISS" };
    return answer;
  },
};

/** numResults: non-finite → web.maxResults; otherwise floored and clamped to 1..maxResults. */
export function clampResults(requested: number | undefined, maxResults: number): number {
  // The sidecar serves at most MAX_SEARCH_RESULTS per query, whatever web.maxResults says.
  const max = Math.min(maxResults, MAX_SEARCH_RESULTS);
  if (requested === undefined || !Number.isFinite(requested)) return max;
  return Math.min(max, Math.max(1, Math.floor(requested)));
}

interface QueryAnswer {
  result: Result<SearchResult[]>;
  cached: boolean;
  retryAfter?: string;
}

async function searchOne(ctx: ToolContext, query: string, numResults: number): Promise<QueryAnswer> {
  ctx.counters.add("search.queries");
  const key = ctx.config.cache.enabled ? await searchCacheKey(ctx.config, numResults, query) : undefined;
  const hit = key ? await ctx.cache.get(key) : undefined;
  if (hit) {
    ctx.counters.add("search.cache.hit");
    return { result: ok(hit), cached: true };
  }
  if (key) ctx.counters.add("search.cache.miss");
  const request = searchRequestFrom(ctx.config, query, numResults, ctx.providerKeys);
  const started = Date.now();
  const slot = await ctx.limiter.run("session", () => ctx.sidecar.search(request));
  if (!slot.ok) return { result: sessionBusy("WEB_SEARCH_FAILED", ctx.config), cached: false };
  const answer = slot.value;
  if (!answer.ok) {
    const { code, message, retryAfter } = answer.error;
    return { result: fail(code, message), cached: false, ...(retryAfter && { retryAfter }) };
  }
  ctx.counters.add(`search.provider.${answer.value.provider}`);
  ctx.latency.record(answer.value.provider, Date.now() - started);
  if (key) await ctx.cache.put(key, answer.value.results);
  return { result: ok(answer.value.results), cached: false };
}

/** Fetches every result's page through the same pipeline; a page that fails just has no content. */
async function attachContent(ctx: ToolContext, data: QueryResultData[]): Promise<void> {
  const results = data.flatMap((q) => q.results);
  await mapLimited(results, ctx.config.concurrency.maxConcurrent, async (result) => {
    const page = await fetchPage(ctx, result.url, false);
    if (page.ok) result.content = page.value;
  });
}
