import {
  DEFAULT_PASSAGES,
  FetchContentSuccessSchema,
  fail,
  fetchBudgetMs,
  FetchContentParamsSchema,
  ok,
  type FetchContentSuccess,
  type PageResult,
  type Result,
} from "@edge-web/shared";
import { callSlots } from "./call-slots.ts";
import { capContent } from "./cap-content.ts";
import { cutPage } from "./cut-page.ts";
import { mapLimited } from "./map-limited.ts";
import { mergeInputs } from "./merge-inputs.ts";
import { readPage } from "./read-page.ts";
import { rankPassages } from "./rank-passages.ts";
import type { Tool } from "./tool.ts";
import { callDeadline, type ToolDeadline } from "./tool-deadline.ts";

const DEADLINE: ToolDeadline = { family: "fetch", budgetMs: (_params, config) => fetchBudgetMs(config) };

export const fetchContentTool: Tool<typeof FetchContentParamsSchema, FetchContentSuccess> = {
  name: "fetch_content",
  title: "Read web pages",
  description:
    "Read web pages when you have their URLs (from the user or a web_search): fetches http(s) URLs (`url` or `urls`) and returns each page's main content as Markdown (HTML) or readable text (JSON, CSV, XML/RSS, YAML, code), with a `responseId`. Pass `query` (your question) to also get each page's passages that answer it, best first, and `maxChars` to cap each page's content (the rest stays readable with get_search_content); `includeSelectors`/`excludeSelectors` (CSS) pick or drop parts of a page. A page read recently may come from a shared cache (each result says `fetchedAt` and `fromCache`); pass `maxAge: 0` when you need it fresh. Private and local addresses are refused.",
  params: FetchContentParamsSchema,
  needs: { anyOf: ["url", "urls"] },
  onlyWith: { maxPassages: ["query"] },
  output: FetchContentSuccessSchema,
  deadline: DEADLINE,
  async run(params, ctx) {
    const urls = mergeInputs(params.url, params.urls);
    if (urls.length === 0) {
      return fail("INVALID_INPUT", "Pass `url` (a string) or `urls` (an array of strings) with at least one http(s) URL.", ["url"]);
    }
    if (params.maxPassages !== undefined && params.query === undefined) {
      return fail("INVALID_INPUT", "`maxPassages` says how many passages fit a `query`: pass the query too.", ["maxPassages"]);
    }
    const { maxUrlsPerCall, maxStoredContentChars, maxStoredResults, maxContentChars, concurrency } = ctx.config;
    if (urls.length > maxUrlsPerCall) {
      return fail("INVALID_INPUT", `This call asks for ${urls.length} URLs; one call may fetch at most ${maxUrlsPerCall} (web.maxUrlsPerCall). Split them over several calls.`, ["urls"]);
    }
    // The first failure fails the call (seed semantics) and cancels the fetches still running.
    const cancel = new AbortController();
    const stop = ctx.signal ? AbortSignal.any([ctx.signal, cancel.signal]) : cancel.signal;
    const slots = callSlots(ctx.limiter, callDeadline(DEADLINE, params, ctx), stop);
    const { includeSelectors, excludeSelectors } = params;
    const page = {
      preferReader: params.preferReader ?? false,
      ...(params.render && { render: params.render }),
      ...(params.waitForSelector && { waitForSelector: params.waitForSelector }),
      ...(includeSelectors?.length && { includeSelectors }),
      ...(excludeSelectors?.length && { excludeSelectors }),
    };
    let firstFailure: Result<never> | undefined;
    // The call's URLs take turns on the session's slots, at most maxConcurrent at once.
    const settled = await mapLimited(urls, concurrency.maxConcurrent, async (url): Promise<Result<PageResult>> => {
      if (firstFailure) return firstFailure;
      const result = await readPage(ctx, slots, url, page, params.maxAge);
      if (!result.ok && !firstFailure) {
        firstFailure = result;
        cancel.abort();
      }
      return result;
    });
    if (firstFailure) return firstFailure;
    // Passages and the cut apply to the page as fetched (or cached): one page answers any question.
    const { query, maxChars } = params;
    const results = settled.flatMap((r) => (r.ok ? [r.value] : [])).map((page) => (query ? { ...page, passages: rankPassages(page.content, query, params.maxPassages ?? DEFAULT_PASSAGES) } : page));
    const responseId = ctx.newResponseId();
    ctx.store.save(capContent({ kind: "fetch", responseId, results }, maxStoredContentChars), maxStoredResults);
    return ok({ responseId, results: maxChars ? results.map((page, urlIndex) => cutPage(page, Math.min(maxChars, maxContentChars), { responseId, urlIndex })) : results });
  },
};
