import {
  GetSearchContentSuccessSchema,
  fail,
  GetSearchContentParamsSchema,
  ok,
  type GetSearchContentParams,
  type GetSearchContentSuccess,
  type Result,
  type StoredResult,
} from "@edge-web/shared";
import type { Tool } from "./tool.ts";

export const getSearchContentTool: Tool<typeof GetSearchContentParamsSchema, GetSearchContentSuccess> = {
  name: "get_search_content",
  title: "Read a stored result",
  description:
    "Read again what an earlier web_search or fetch_content returned, without fetching anything: pass its `responseId`, and `urlIndex`/`url` for one page or `queryIndex`/`query` for one query's results.",
  params: GetSearchContentParamsSchema,
  output: GetSearchContentSuccessSchema,
  async run(params, ctx) {
    const responseId = params.responseId.trim();
    if (responseId === "") {
      return fail("INVALID_INPUT", "responseId is empty; pass the responseId of a web_search or fetch_content result.", ["responseId"]);
    }
    const stored = ctx.store.get(responseId);
    if (!stored) {
      return fail(
        "NOT_FOUND",
        `No stored result has responseId "${responseId}" in this session; it may never have existed or been evicted (the session keeps the last ${ctx.config.maxStoredResults}).`,
      );
    }
    const selected = select(stored, params);
    return selected.ok ? ok({ responseId, result: selected.value }) : selected;
  },
};

const sameUrl = (a: string, b: string) => normalizeUrl(a) === normalizeUrl(b);

function normalizeUrl(raw: string): string {
  try {
    return new URL(raw.trim()).href;
  } catch {
    return raw.trim();
  }
}

/** Selectors in the seed's order: urlIndex, url (fetch results), queryIndex, query (search results). */
function select(stored: StoredResult, p: GetSearchContentParams): Result<GetSearchContentSuccess["result"]> {
  const wantsFetch = p.urlIndex !== undefined || p.url !== undefined;
  const wantsSearch = p.queryIndex !== undefined || p.query !== undefined;
  if (!wantsFetch && !wantsSearch) return ok(stored);

  if (wantsFetch) {
    if (stored.kind !== "fetch") return fail("NOT_FOUND", "urlIndex and url select fetch_content results; this responseId is a web_search result, use queryIndex or query.");
    const { results } = stored;
    const item =
      p.urlIndex !== undefined
        ? results[p.urlIndex]
        : results.find((r) => sameUrl(r.url, p.url ?? "") || (r.metadata?.requestedUrl !== undefined && sameUrl(r.metadata.requestedUrl, p.url ?? "")));
    if (item) return ok(item);
    return fail(
      "NOT_FOUND",
      p.urlIndex !== undefined
        ? `urlIndex ${p.urlIndex} is out of range: this result has ${results.length} URL(s), indexes 0 to ${results.length - 1}.`
        : `No fetched URL matches "${p.url}"; this result holds: ${results.map((r) => r.url).join(", ")}.`,
    );
  }

  if (stored.kind !== "search") return fail("NOT_FOUND", "queryIndex and query select web_search results; this responseId is a fetch_content result, use urlIndex or url.");
  const { queries } = stored;
  const item = p.queryIndex !== undefined ? queries[p.queryIndex] : queries.find((q) => q.query.trim() === (p.query ?? "").trim());
  if (item) return ok(item);
  return fail(
    "NOT_FOUND",
    p.queryIndex !== undefined
      ? `queryIndex ${p.queryIndex} is out of range: this result has ${queries.length} quer${queries.length === 1 ? "y" : "ies"}, indexes 0 to ${queries.length - 1}.`
      : `No query matches "${p.query}"; this result holds: ${queries.map((q) => JSON.stringify(q.query)).join(", ")}.`,
  );
}
