import { fail, fetchOptionsFrom, type ExtractedContent, type Result } from "@edge-web/shared";
import { sessionBusy } from "./session-busy.ts";
import type { ToolContext } from "./tool.ts";

/** One page through the sidecar's fetch pipeline, inside the session's concurrency limit. */
export async function fetchPage(ctx: ToolContext, url: string, preferReader: boolean, signal?: AbortSignal): Promise<Result<ExtractedContent>> {
  const options = fetchOptionsFrom(ctx.config);
  const slot = await ctx.limiter.run("session", () => ctx.sidecar.fetchContent(url, preferReader, options, signal), signal);
  if (slot.ok) {
    const { bytes, ...page } = slot.value;
    if (page.ok) {
      ctx.counters.add("fetch.pages");
      ctx.counters.add("fetch.bytes", bytes ?? 0);
    }
    return page;
  }
  return slot.reason === "queue-full" ? sessionBusy("CONTENT_FETCH_FAILED", ctx.config) : fail("CONTENT_FETCH_FAILED", `Fetching ${url} was cancelled.`);
}
