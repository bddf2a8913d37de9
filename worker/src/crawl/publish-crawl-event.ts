import type { CrawlEvent } from "@edge-web/shared";
import type { Env } from "../env.ts";
import { crawlSession } from "./crawl-session.ts";

/**
 * A crawl's progress as a `data-crawl` chunk on its session's stream. A session that has ended (or
 * cannot be reached now) misses the chunk; the crawl's state stays readable at its own route.
 */
export async function publishCrawlEvent(env: Env, sessionId: string, event: CrawlEvent): Promise<void> {
  try {
    await crawlSession(env, sessionId).publishCrawlEvent(event);
  } catch {
    // The chunk is progress, not the record: GET …/crawls/:crawlId answers what it would have said.
  }
}
