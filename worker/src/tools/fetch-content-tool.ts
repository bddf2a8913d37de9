import {
  fail,
  FetchContentParamsSchema,
  fetchOptionsFrom,
  ok,
  type ExtractedContent,
  type FetchContentSuccess,
  type Result,
} from "@edge-web/shared";
import { capStoredContent } from "../session/cap-stored-content.ts";
import { mergeInputs } from "./merge-inputs.ts";
import type { Tool } from "./tool.ts";

export const fetchContentTool: Tool<typeof FetchContentParamsSchema, FetchContentSuccess> = {
  name: "fetch_content",
  params: FetchContentParamsSchema,
  async run(params, ctx) {
    const urls = mergeInputs(params.url, params.urls);
    if (urls.length === 0) {
      return fail("INVALID_INPUT", "Pass `url` (a string) or `urls` (an array of strings) with at least one http(s) URL.", ["url"]);
    }
    const options = fetchOptionsFrom(ctx.config);
    // The first failure fails the call (seed semantics) and cancels the fetches still running.
    const cancel = new AbortController();
    let firstFailure: Result<never> | undefined;
    const fetchOne = async (url: string): Promise<Result<ExtractedContent>> => {
      const slot = await ctx.limiter.run("session", () => ctx.sidecar.fetchContent(url, params.preferReader ?? false, options, cancel.signal), cancel.signal);
      const result: Result<ExtractedContent> = slot.ok
        ? slot.value
        : fail("CONTENT_FETCH_FAILED", slot.reason === "queue-full" ? queueFullMessage(ctx.config.concurrency) : `Fetching ${url} was cancelled.`);
      if (!result.ok && !firstFailure) {
        firstFailure = result;
        cancel.abort();
      }
      return result;
    };
    const settled = await Promise.all(urls.map(fetchOne));
    if (firstFailure) return firstFailure;
    const results = settled.flatMap((r) => (r.ok ? [r.value] : []));
    const responseId = ctx.newResponseId();
    ctx.store.save(capStoredContent({ kind: "fetch", responseId, results }, ctx.config.maxStoredContentChars), ctx.config.maxStoredResults);
    return ok({ responseId, results });
  },
};

function queueFullMessage(limits: { maxConcurrent: number; maxQueueSize: number }): string {
  return `This session already has ${limits.maxConcurrent} fetches running and ${limits.maxQueueSize} waiting (web.concurrency); wait for them to finish or send fewer URLs at once.`;
}
