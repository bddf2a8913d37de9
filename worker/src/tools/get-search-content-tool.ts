import {
  GetSearchContentSuccessSchema,
  fail,
  GetSearchContentParamsSchema,
  ok,
  type ExtractedContent,
  type GetSearchContentParams,
  type GetSearchContentSuccess,
  type Result,
  type SearchResult,
  type StoredResult,
} from "@edge-web/shared";
import { pairSafe } from "./cap-content.ts";
import { contentWindow } from "./content-window.ts";
import { findPassages, type FindPage } from "./find-passages.ts";
import { findPattern, type FindPattern } from "./find-pattern.ts";
import type { Tool } from "./tool.ts";

/** The params that pick one page (`resultIndex` with a query's picker). */
const PAGE_PICKERS = ["urlIndex", "url", "resultIndex"] as const;

export const getSearchContentTool: Tool<typeof GetSearchContentParamsSchema, GetSearchContentSuccess> = {
  name: "get_search_content",
  title: "Read a stored result",
  description:
    "Read again what an earlier web_search or fetch_content returned, without fetching anything: pass its `responseId`, and `urlIndex`/`url` for one page or `queryIndex`/`query` for one query's results (with `resultIndex` for one result's page). " +
    "Read a long page in parts with `offset` and `maxChars` (continue from the answer's `nextOffset`), or search stored pages with `find` (a phrase or /regex/) to get just the passages around the matches.",
  params: GetSearchContentParamsSchema,
  onlyWith: { resultIndex: ["queryIndex", "query"], offset: PAGE_PICKERS, maxChars: [...PAGE_PICKERS, "find"] },
  output: GetSearchContentSuccessSchema,
  async run(params, ctx) {
    const responseId = params.responseId.trim();
    if (responseId === "") {
      return fail("INVALID_INPUT", "responseId is empty; pass the responseId of a web_search or fetch_content result.", ["responseId"]);
    }
    const checked = checkReading(params);
    if (!checked.ok) return checked;
    const stored = ctx.store.get(responseId);
    if (!stored) {
      return fail(
        "NOT_FOUND",
        `No stored result has responseId "${responseId}" in this session; it may never have existed or been evicted (the session keeps the last ${ctx.config.maxStoredResults}).`,
      );
    }
    const selected = select(stored, params);
    if (!selected.ok) return selected;
    const { result, pages } = selected.value;
    const reading = checked.value;
    if (!reading) return ok({ responseId, result });
    const maxChars = Math.min(params.maxChars ?? ctx.config.maxContentChars, ctx.config.maxContentChars);
    // A search yields its thread as it goes; past the call's deadline it answers what it found.
    const until = { stopAt: (ctx.startedAt ?? Date.now()) + ctx.config.timeoutMs - (ctx.reserveMs ?? 0), ...(ctx.signal && { signal: ctx.signal }) };
    // checkReading lets only find through without one page picked.
    if (!onePage(params)) {
      const found = await findPassages(pages, reading.find!, 0, maxChars, until);
      return ok({ responseId, find: params.find, matchCount: found.matchCount, passages: found.passages, ...(found.capped && { capped: found.capped }) });
    }
    const page = pages[0];
    if (!page) return fail("NOT_FOUND", "This search result has no stored page content (web_search without includeContent, or its page failed); fetch its URL with fetch_content.");
    const text = page.content;
    if ((params.offset ?? 0) > text.length) {
      return fail("INVALID_INPUT", `offset ${params.offset} is past the end: this page has ${text.length} characters (offsets 0 to ${text.length}).`, ["offset"]);
    }
    const offset = pairSafe(text, params.offset ?? 0);
    if (reading.find) {
      const { resumeAt, ...found } = await findPassages(pages, reading.find, offset, maxChars, until);
      return ok({ responseId, find: params.find, ...found, offset, totalChars: text.length, ...(found.capped && { nextOffset: resumeAt }) });
    }
    const window = contentWindow(text, offset, maxChars);
    return ok({ responseId, result: withContent(result, text.slice(window.offset, window.end)), ...window, totalChars: text.length });
  },
};

/** Whether the params pick one page: a fetched one, or one search result's. */
const onePage = (p: GetSearchContentParams) => PAGE_PICKERS.some((key) => p[key] !== undefined);

/**
 * The paging and search params checked against each other before any lookup: undefined when the
 * call reads today's whole answer, else what to search for (if anything).
 */
function checkReading(p: GetSearchContentParams): Result<{ find?: FindPattern } | undefined> {
  if (p.resultIndex !== undefined && p.queryIndex === undefined && p.query === undefined) {
    return fail("INVALID_INPUT", "resultIndex picks a result of one query: pass queryIndex or query with it.", ["resultIndex"]);
  }
  if (p.find !== undefined) {
    const pattern = findPattern(p.find);
    if (!pattern.ok) return pattern;
    if (p.offset !== undefined && !onePage(p)) {
      return fail("INVALID_INPUT", "offset with find says where to search from in one page: pick the page with urlIndex/url, or queryIndex/query with resultIndex.", ["offset"]);
    }
    return ok({ find: pattern.value });
  }
  const paging = (["offset", "maxChars"] as const).filter((field) => p[field] !== undefined);
  if (paging.length === 0) return ok(undefined);
  if (!onePage(p)) {
    return fail("INVALID_INPUT", `${paging.join(" and ")} read one page's content: pick the page with urlIndex/url, or queryIndex/query with resultIndex (or use find to search every page).`, [...paging]);
  }
  return ok({});
}

/** The picked item with its page content replaced by `content`. */
function withContent(result: GetSearchContentSuccess["result"], content: string): GetSearchContentSuccess["result"] {
  const item = result as ExtractedContent | SearchResult;
  if (typeof item.content === "string") return { ...(item as ExtractedContent), content };
  return { ...(item as SearchResult), content: { ...(item as SearchResult).content!, content } };
}

const sameUrl = (a: string, b: string) => normalizeUrl(a) === normalizeUrl(b);

function normalizeUrl(raw: string): string {
  try {
    return new URL(raw.trim()).href;
  } catch {
    return raw.trim();
  }
}

type Selected = { result: NonNullable<GetSearchContentSuccess["result"]>; pages: FindPage[] };

const fetchPages = (results: ExtractedContent[]): FindPage[] => results.map((r, urlIndex) => ({ at: { urlIndex }, url: r.url, content: r.content }));
const searchPages = (results: SearchResult[], queryIndex: number): FindPage[] =>
  results.flatMap((r, resultIndex) => (r.content ? [{ at: { queryIndex, resultIndex }, url: r.url, content: r.content.content }] : []));

/**
 * Selectors in the seed's order: urlIndex, url (fetch results), queryIndex, query (search
 * results), then resultIndex within the query; with the pages `find` searches in the selection.
 */
function select(stored: StoredResult, p: GetSearchContentParams): Result<Selected> {
  const wantsFetch = p.urlIndex !== undefined || p.url !== undefined;
  const wantsSearch = p.queryIndex !== undefined || p.query !== undefined;
  if (!wantsFetch && !wantsSearch) {
    return ok({ result: stored, pages: stored.kind === "fetch" ? fetchPages(stored.results) : stored.queries.flatMap((q, i) => searchPages(q.results, i)) });
  }

  if (wantsFetch) {
    if (stored.kind !== "fetch") return fail("NOT_FOUND", "urlIndex and url select fetch_content results; this responseId is a web_search result, use queryIndex or query.");
    const { results } = stored;
    const index =
      p.urlIndex ?? results.findIndex((r) => sameUrl(r.url, p.url ?? "") || (typeof r.metadata?.finalUrl === "string" && sameUrl(r.metadata.finalUrl, p.url ?? "")));
    const item = results[index];
    if (item) return ok({ result: item, pages: fetchPages(results).slice(index, index + 1) });
    return fail(
      "NOT_FOUND",
      p.urlIndex !== undefined
        ? `urlIndex ${p.urlIndex} is out of range: this result has ${results.length} URL(s), indexes 0 to ${results.length - 1}.`
        : `No fetched URL matches "${p.url}"; this result holds: ${results.map((r) => r.url).join(", ")}.`,
    );
  }

  if (stored.kind !== "search") return fail("NOT_FOUND", "queryIndex and query select web_search results; this responseId is a fetch_content result, use urlIndex or url.");
  const { queries } = stored;
  const queryIndex = p.queryIndex ?? queries.findIndex((q) => q.query.trim() === (p.query ?? "").trim());
  const item = queries[queryIndex];
  if (!item) {
    return fail(
      "NOT_FOUND",
      p.queryIndex !== undefined
        ? `queryIndex ${p.queryIndex} is out of range: this result has ${queries.length} quer${queries.length === 1 ? "y" : "ies"}, indexes 0 to ${queries.length - 1}.`
        : `No query matches "${p.query}"; this result holds: ${queries.map((q) => JSON.stringify(q.query)).join(", ")}.`,
    );
  }
  if (p.resultIndex === undefined) return ok({ result: item, pages: searchPages(item.results, queryIndex) });
  const one = item.results[p.resultIndex];
  if (!one) return fail("NOT_FOUND", `resultIndex ${p.resultIndex} is out of range: this query has ${item.results.length} result(s), indexes 0 to ${item.results.length - 1}.`);
  return ok({ result: one, pages: searchPages([one], queryIndex).map((page) => ({ ...page, at: { queryIndex, resultIndex: p.resultIndex } })) });
}
