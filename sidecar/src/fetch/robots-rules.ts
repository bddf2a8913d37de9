import type { RobotsRecord } from "@edge-web/shared";
import robotsParser from "robots-parser";
import { PRODUCT_TOKEN } from "../user-agent.ts";

/** Whether a URL of the record's origin may be fetched (and the Crawl-delay its group sets, in seconds); when not, which rule (or failure) says so. */
export type RobotsVerdict = { allowed: true; crawlDelayS?: number } | { allowed: false; reason: string };

/**
 * An origin's record as a check of its URLs, parsed once. The rules are RFC 9309's (through
 * robots-parser): the group for our product token, else `*`; the longest matching rule, Allow on a
 * tie; `*` and `$` in paths.
 */
export function compileRobots(record: RobotsRecord): (url: string) => RobotsVerdict {
  if (record.kind === "allow-all") return () => ({ allowed: true });
  if (record.kind === "disallow-all") {
    const reason = `${record.url} ${record.why}, and RFC 9309 has a crawler read nothing from a site whose robots.txt fails that way`;
    return () => ({ allowed: false, reason });
  }
  const robots = robotsParser(record.url, record.body);
  const lines = record.body.split(/\r\n|\r|\n/);
  // Crawl-delay is not RFC 9309's, but the crawlers a site owner names in it (and the group robots-parser picks for us) honour it.
  const crawlDelayS = robots.getCrawlDelay(PRODUCT_TOKEN);
  const allowed = crawlDelayS !== undefined && Number.isFinite(crawlDelayS) && crawlDelayS > 0 ? { allowed: true as const, crawlDelayS } : { allowed: true as const };
  return (url) => {
    if (robots.isAllowed(url, PRODUCT_TOKEN) !== false) return allowed;
    const line = robots.getMatchingLineNumber(url, PRODUCT_TOKEN);
    const rule = (lines[line - 1] ?? "").replace(/#.*/, "").trim().slice(0, 200);
    return { allowed: false, reason: `${record.url} disallows it for ${PRODUCT_TOKEN}: line ${line}, "${rule}"` };
  };
}
