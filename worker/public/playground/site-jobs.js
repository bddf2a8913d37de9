// @ts-check
// The map and crawl forms: a site's URLs listed, and a crawl followed until it ends, its pages shown as they arrive.

import { responseIdLine } from "./answers.js";
import { api, sessionPath } from "./api.js";
import { h, safeLink } from "./dom.js";

/** @typedef {import("./api.js").Shape<"MapSuccessSchema">} MapAnswer */
/** @typedef {import("./api.js").Shape<"CrawlStateSchema">} CrawlState */
/** @template T @typedef {import("./api.js").Answer<T>} Answer */

/** URLs of a map listed at most; the raw JSON holds them all. */
const LISTED = 200;
/** How often a running crawl is read again. */
const FOLLOW_MS = 700;

/**
 * A map's answer: its counts, the problems it met, and its URLs with where each was found.
 * @param {MapAnswer} answer
 * @returns {HTMLElement[]}
 */
export function mapNodes(answer) {
  const { counts } = answer;
  /** @type {HTMLElement[]} */
  const nodes = [
    h("p", { class: "meta" }, `${answer.urls.length} of ${counts.matched} matching URLs (${counts.found} found; ${counts.sitemaps} sitemap files read; ${counts.skippedByRobots} left out by robots.txt, ${counts.skippedByPolicy} by the network policy)`),
  ];
  if (answer.problems.length > 0) nodes.push(h("ul", { class: "problems" }, answer.problems.map((problem) => h("li", {}, h("code", {}, problem.code), ` ${problem.url}: ${problem.message}`))));
  nodes.push(
    h(
      "ol",
      { class: "url-list" },
      answer.urls.slice(0, LISTED).map((entry) => h("li", {}, safeLink(entry.url), ` — ${entry.source}`, entry.lastmod ? `, ${entry.lastmod}` : "", entry.title ? ` — ${entry.title}` : "")),
    ),
  );
  return nodes;
}

/**
 * A crawl as it stands: status, counts, and each page with its outcome (a fetched page's responseId reads it again).
 * @param {CrawlState} crawl
 * @param {CrawlState["pages"]} pages
 * @returns {HTMLElement[]}
 */
export function crawlNodes(crawl, pages) {
  const c = crawl.counts;
  return [
    h("p", { class: "meta" }, h("code", {}, crawl.crawlId), ` — ${crawl.status}${crawl.reason ? ` (${crawl.reason})` : ""}`),
    h(
      "p",
      { class: "meta" },
      `${c.fetched} fetched, ${c.failed} failed of ${c.discovered} found (limit ${crawl.limit}, depth ${crawl.maxDepth}); skipped: ${c.skippedByRobots} by robots.txt, ${c.skippedByPolicy} by the network policy, ${c.skippedByFilter} by scope, ${c.skippedByLimit} by the limit, ${c.skippedByTrap} as traps`,
    ),
    h(
      "ol",
      { class: "url-list" },
      pages.map((page) =>
        h("li", {}, safeLink(page.url), ` — ${page.status}`, page.code ? ` ${page.code}: ${page.message ?? ""}` : "", page.responseId ? responseIdLine(page.responseId) : ""),
      ),
    ),
  ];
}

/**
 * Follows a crawl until it ends, calling `shown` with its state and every page read so far after each read.
 * @param {string} sessionId
 * @param {string} crawlId
 * @param {(crawl: CrawlState, pages: CrawlState["pages"]) => void} shown
 * @returns {Promise<Answer<CrawlState>>} the last read (the crawl ended, or a read failed)
 */
export async function followCrawl(sessionId, crawlId, shown) {
  /** @type {Map<string, CrawlState["pages"][number]>} */
  const pages = new Map();
  for (;;) {
    // The whole list each time: pages already listed change as they settle.
    let cursor = "0";
    /** @type {Answer<CrawlState> | undefined} */
    let read;
    do {
      read = /** @type {Answer<CrawlState>} */ (await api("GET", sessionPath(sessionId, `crawls/${encodeURIComponent(crawlId)}?cursor=${cursor}`)));
      if (!read.ok) return read;
      for (const page of read.data.pages) pages.set(page.url, page);
      cursor = read.data.nextCursor ?? "";
    } while (cursor);
    shown(read.data, [...pages.values()]);
    if (read.data.status !== "running") return read;
    await new Promise((resolve) => setTimeout(resolve, FOLLOW_MS));
  }
}
