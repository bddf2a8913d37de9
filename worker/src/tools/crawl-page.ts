import { DEFAULT_PASSAGES, fetchBudgetMs, type CrawlParams } from "@edge-web/shared";
import { callSlots } from "./call-slots.ts";
import { capContent } from "./cap-content.ts";
import { rankPassages } from "./rank-passages.ts";
import { readPage } from "./read-page.ts";
import type { ToolContext } from "./tool.ts";
import { callDeadline, type ToolDeadline } from "./tool-deadline.ts";

/** One page of a crawl to fetch and store. */
export interface CrawlPageRequest {
  crawlId: string;
  seq: number;
  url: string;
  params: CrawlParams;
}

/** How the page settled: stored (its responseId, its content's bytes, its links, its origin's Crawl-delay), or failed; robots.txt's and the policy's refusals are skips. */
export type CrawlPageOutcome =
  | { ok: true; responseId: string; bytes: number; links: string[]; crawlDelayMs?: number }
  | { ok: false; code: string; message: string; skip?: "robots" | "policy" };

const DEADLINE: ToolDeadline = { family: "fetch", budgetMs: (_params, config) => fetchBudgetMs(config) };

/**
 * A crawl's page the way fetch_content reads one — the session's slots and deadline, the fetch
 * cache, robots.txt, the network policy, the page options — with its links asked for too; stored as
 * a fetch result of the session (get_search_content reads it), its links kept out of what is stored.
 */
export async function crawlPage(ctx: ToolContext, request: CrawlPageRequest): Promise<CrawlPageOutcome> {
  const { params } = request;
  const slots = callSlots(ctx.limiter, callDeadline(DEADLINE, params, ctx), ctx.signal);
  const page = {
    links: true,
    ...(params.render && { render: params.render }),
    ...(params.includeSelectors?.length && { includeSelectors: params.includeSelectors }),
    ...(params.excludeSelectors?.length && { excludeSelectors: params.excludeSelectors }),
  };
  const read = await readPage(ctx, slots, request.url, page, params.maxAge);
  if (!read.ok) {
    const fault = read.error.details?.fault;
    const skip = fault === "robots" || fault === "policy" ? fault : undefined;
    return { ok: false, code: read.error.code, message: read.error.message, ...(skip && { skip }) };
  }
  const { links = [], crawlDelayMs, ...fetched } = read.value;
  const result = params.query ? { ...fetched, passages: rankPassages(fetched.content, params.query, DEFAULT_PASSAGES) } : fetched;
  const responseId = ctx.newResponseId();
  ctx.store.save(capContent({ kind: "fetch", responseId, results: [result] }, ctx.config.maxStoredContentChars), ctx.config.maxStoredResults);
  return { ok: true, responseId, bytes: new TextEncoder().encode(fetched.content).byteLength, links, ...(crawlDelayMs !== undefined && { crawlDelayMs }) };
}
