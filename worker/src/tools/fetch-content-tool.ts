import {
  fail,
  FetchContentParamsSchema,
  ok,
  type ExtractedContent,
  type FetchContentSuccess,
  type Result,
} from "@edge-web/shared";
import { capStoredContent } from "../session/cap-stored-content.ts";
import { fetchPage } from "./fetch-page.ts";
import { mergeInputs } from "./merge-inputs.ts";
import type { Tool } from "./tool.ts";

export const fetchContentTool: Tool<typeof FetchContentParamsSchema, FetchContentSuccess> = {
  name: "fetch_content",
  description:
    "Fetch http(s) URLs (`url` or `urls`) and return each page's readable content as Markdown (HTML) or readable text (JSON, CSV, XML/RSS, YAML, code). Private and local addresses are refused.",
  params: FetchContentParamsSchema,
  async run(params, ctx) {
    const urls = mergeInputs(params.url, params.urls);
    if (urls.length === 0) {
      return fail("INVALID_INPUT", "Pass `url` (a string) or `urls` (an array of strings) with at least one http(s) URL.", ["url"]);
    }
    // The first failure fails the call (seed semantics) and cancels the fetches still running.
    const cancel = new AbortController();
    let firstFailure: Result<never> | undefined;
    const fetchOne = async (url: string): Promise<Result<ExtractedContent>> => {
      const result = await fetchPage(ctx, url, params.preferReader ?? false, cancel.signal);
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
