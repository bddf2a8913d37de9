import { SentRobotsEntriesSchema, type RobotsEntry } from "@edge-web/shared";
import * as v from "valibot";

/**
 * The robots.txt records crossing with one request: the worker's for the URL's origin (from KV,
 * shared by every sidecar), and those this request read afresh, any hop's, for the worker to keep.
 */
export interface RobotsExchange {
  given?: RobotsEntry;
  read: RobotsEntry[];
  /** The Crawl-delay (ms) of the last hop's origin, when its robots.txt sets one for us. */
  crawlDelayMs?: number;
}

export const robotsExchange = (given: RobotsEntry | undefined): RobotsExchange => ({ ...(given && { given }), read: [] });

/** What the answer reports: the records read that may be shared (checked as the worker will check them), if any. */
export function robotsReport(exchange: RobotsExchange): { robotsRead?: RobotsEntry[] } {
  const robotsRead = v.parse(SentRobotsEntriesSchema, exchange.read);
  return robotsRead.length > 0 ? { robotsRead } : {};
}
