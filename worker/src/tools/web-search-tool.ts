import {
  DEFAULT_PASSAGES,
  type CodedError,
  WebSearchSuccessSchema,
  fail,
  fetchBudgetMs,
  MAX_SEARCH_RESULTS,
  ok,
  searchRequestFrom,
  WebSearchParamsSchema,
  type QueryResultData,
  type Result,
  type SearchFilters,
  type WebSearchParams,
  type WebSearchSuccess,
} from "@edge-web/shared";
import type { SearchAnswer } from "../cache/search-cache.ts";
import { searchCacheKey } from "../cache/search-cache-key.ts";
import { callSlots, type CallSlots } from "./call-slots.ts";
import { capContent } from "./cap-content.ts";
import { mapLimited } from "./map-limited.ts";
import { mergeInputs } from "./merge-inputs.ts";
import { readPage } from "./read-page.ts";
import { rankPassages } from "./rank-passages.ts";
import { slotFailure } from "./slot-failure.ts";
import type { Tool, ToolAnswer, ToolContext } from "./tool.ts";
import { callDeadline, type ToolDeadline } from "./tool-deadline.ts";

const MAX_QUERIES = 5;

// One deadline for the whole call; with includeContent the pages are fetched within it too.
const DEADLINE: ToolDeadline<WebSearchParams> = { family: "search", budgetMs: (params, config) => (params.includeContent ? fetchBudgetMs(config) : config.timeoutMs) };

export const webSearchTool: Tool<typeof WebSearchParamsSchema, WebSearchSuccess> = {
  name: "web_search",
  title: "Search the web",
  description:
    "Search the web for current facts, sources or pages you do not have yet. Each result has a title, URL and snippet; read pages with fetch_content, or set `includeContent`. Each query's `applied` says per provider how filters held: recency \"filtered\" checked dated results only, keeping undated ones.",
  params: WebSearchParamsSchema,
  needs: { anyOf: ["query", "queries"] },
  output: WebSearchSuccessSchema,
  deadline: DEADLINE,
  async run(params, ctx) {
    const queries = mergeInputs(params.query, params.queries).slice(0, MAX_QUERIES);
    if (queries.length === 0) {
      return fail("WEB_SEARCH_INVALID_QUERY", "Pass `query` (a string) or `queries` (an array of strings) with at least one non-empty search query.", ["query"]);
    }
    const numResults = clampResults(params.numResults, ctx.config.maxResults);
    const slots = callSlots(ctx.limiter, callDeadline(DEADLINE, params, ctx), ctx.signal);

    const filters = { recency: params.recency, includeDomains: params.includeDomains, excludeDomains: params.excludeDomains, provider: params.provider };
    const answers = await Promise.all(queries.map((query) => searchOne(ctx, slots, query, numResults, filters, params.maxAge)));
    const failure = answers.find((a) => !a.result.ok);
    if (failure && !failure.result.ok) {
      return { ok: false, error: failure.result.error, ...(failure.retryAfter && { headers: { "retry-after": failure.retryAfter } }) };
    }
    let data: QueryResultData[] = answers.map((a, i) => ({ query: queries[i]!, ...(a.result.ok ? a.result.value : { results: [] }) }));
    if (params.includeContent) data = await withContent(ctx, slots, data, params.maxAge);

    const responseId = ctx.newResponseId();
    ctx.store.save(capContent({ kind: "search", responseId, queries: data }, ctx.config.maxStoredContentChars), ctx.config.maxStoredResults);
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
  result: Result<Omit<QueryResultData, "query">>;
  cached: boolean;
  retryAfter?: string;
}

/** One query: from the search cache when an entry is young enough (`maxAge`; by default any within web.cache.ttlMs), else from the provider. */
async function searchOne(
  ctx: ToolContext,
  slots: CallSlots,
  query: string,
  numResults: number,
  filters: SearchFilters,
  maxAge: number | undefined,
): Promise<QueryAnswer> {
  ctx.record.count("search.queries");
  const looked = Date.now();
  const key = ctx.config.cache.enabled ? await searchCacheKey(ctx.config, ctx.providerKeys, numResults, query, filters) : undefined;
  const hit = key ? await ctx.cache.get(key, maxAge) : undefined;
  ctx.record.step("cache", Date.now() - looked);
  if (hit) {
    ctx.record.count("search.cache.hit");
    // The cached entry is shared and frozen: the answer gets its own objects (the provider's results, which carry no page).
    const results = hit.results.map(({ content: _page, sources, ...result }) => ({ ...result, ...(sources && { sources: sources.map((source) => ({ ...source })) }) }));
    const applied = hit.applied && Object.fromEntries(Object.entries(hit.applied).map(([provider, how]) => [provider, { ...how }]));
    return { result: ok({ results, ...(applied && { applied }) }), cached: true };
  }
  if (key) ctx.record.count("search.cache.miss");
  const request = searchRequestFrom(ctx.config, query, numResults, ctx.providerKeys, ctx.operatorUrls, filters);
  const queued = Date.now();
  let started = queued;
  const slot = await slots.run(async () => {
    started = Date.now();
    ctx.record.step("session-queue", started - queued);
    const answer = await ctx.sidecar.search(request, slots.deadline, slots.cancel);
    ctx.record.step("sidecar", Date.now() - started);
    return answer;
  });
  if (!slot.ok) return { result: slotFailure(slot.error, "search", `Searching for ${JSON.stringify(query)}`, slots, ctx.config), cached: false };
  const answer = slot.value;
  for (const [step, ms] of Object.entries(answer.timings ?? {})) ctx.record.step(`sidecar.${step}`, ms);
  if (!answer.ok) return { result: { ok: false, error: answer.error }, cached: false, ...(answer.retryAfter && { retryAfter: answer.retryAfter }) };
  const { provider, results, applied, providerErrors, latencyMs = { [provider]: Date.now() - started } } = answer.value;
  for (const [name, ms] of Object.entries(latencyMs)) {
    ctx.record.count(`search.provider.${name}`);
    ctx.record.latency(name, ms);
  }
  const found: SearchAnswer = { results, ...(applied && { applied }) };
  // An answer missing a provider that failed would stand in for the whole set until it expired.
  if (key && !providerErrors) await ctx.cache.put(key, found);
  return { result: ok({ ...found, ...(providerErrors && { providerErrors }) }), cached: false };
}

/** A page's failure as its result says it: the code, the message and whose fault it was. */
const contentError = ({ code, message, details }: CodedError) => ({ code, message, ...(details && { details }) });

/**
 * Every result's page through the same pipeline, within the call's deadline, with its passages
 * ranked against the result's query; a page that fails has no content but its contentError (the reason).
 */
async function withContent(ctx: ToolContext, slots: CallSlots, data: QueryResultData[], maxAge: number | undefined): Promise<QueryResultData[]> {
  const results = data.flatMap((q) => q.results);
  const pages = await mapLimited(results, ctx.config.concurrency.maxConcurrent, (result) => readPage(ctx, slots, result.url, { preferReader: false }, maxAge));
  const content = new Map(results.map((result, i) => [result, pages[i]!]));
  return data.map((q) => ({
    ...q,
    results: q.results.map((result) => {
      const page = content.get(result);
      if (page && !page.ok) return { ...result, contentError: contentError(page.error) };
      return page?.ok ? { ...result, content: { ...page.value, passages: rankPassages(page.value.content, q.query, DEFAULT_PASSAGES) } } : result;
    }),
  }));
}
