import type { CrawlEvent } from "@edge-web/shared";
import type { Settings } from "../config/resolve-settings.ts";
import type { Env } from "../env.ts";
import type { CrawlPageOutcome, CrawlPageRequest } from "../tools/crawl-page.ts";

/** What a crawl asks of its session (the SessionObject answers it): read and store a page, show progress. */
export interface CrawlSession {
  crawlPage(request: CrawlPageRequest, settings: Settings): Promise<CrawlPageOutcome>;
  publishCrawlEvent(event: CrawlEvent): Promise<void>;
}

/**
 * The crawl's session object, by the id the crawl holds (a session's UUID, checked when the crawl
 * began), as the crawl's side of it: crawl/ imports nothing of session/, which imports crawl/.
 */
export function crawlSession(env: Pick<Env, "SESSIONS">, sessionId: string): CrawlSession {
  return env.SESSIONS.get(env.SESSIONS.idFromName(sessionId.toLowerCase())) as unknown as CrawlSession;
}
