import type { RobotsRecord } from "@edge-web/shared";
import robotsParser from "robots-parser";
import { PRODUCT_TOKEN } from "../user-agent.ts";

/** Whether a URL of the record's origin may be fetched (and the Crawl-delay its group sets, in seconds); when not, which rule (or failure) says so. */
export type RobotsVerdict = { allowed: true; crawlDelayS?: number } | { allowed: false; reason: string };

/**
 * The most steps one URL's check may take. robots-parser matches a rule with `*` as Google's reference parser does, in
 * steps of the rule's length times the URL's: 500 KiB of such rules against an 8,000-character URL took 4.4 s, on the
 * thread that serves every fetch, and a crawl checks every URL it finds. A check within this took at most 80 ms.
 */
const MAX_WILDCARD_STEPS = 20_000_000;

/** The characters of the body's Allow and Disallow rules that hold a `*`, in every group: what a check costs per URL character. */
function wildcardChars(lines: readonly string[]): number {
  let chars = 0;
  for (const line of lines) {
    const rule = /^\s*(?:dis)?allow\s*:([^#]*)/i.exec(line)?.[1];
    if (rule?.includes("*")) chars += rule.length;
  }
  return chars;
}

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
  const wildcards = wildcardChars(lines);
  return (url) => {
    // Refused rather than read for longer: the rules may disallow the URL, and they cannot be told in time.
    if (wildcards * (url.length + 1) > MAX_WILDCARD_STEPS) {
      return { allowed: false, reason: `${record.url} has ${wildcards} characters of rules with wildcards, too many to check against a URL of ${url.length} characters` };
    }
    if (robots.isAllowed(url, PRODUCT_TOKEN) !== false) return allowed;
    const line = robots.getMatchingLineNumber(url, PRODUCT_TOKEN);
    const rule = (lines[line - 1] ?? "").replace(/#.*/, "").trim().slice(0, 200);
    return { allowed: false, reason: `${record.url} disallows it for ${PRODUCT_TOKEN}: line ${line}, "${rule}"` };
  };
}
