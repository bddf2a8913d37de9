import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startCrawlSite } from "../test-support/crawl-site.ts";
import { startStack, type Stack } from "../test-support/stack.ts";
import { waitFor } from "../test-support/wait-for.ts";
import { stackCpu } from "./stack-cpu.ts";

const SITE_HOST = "127.0.0.43";
/** The origin's answer time per page. */
const LATENCY_MS = 50;

/**
 * A crawl of `pages` pages of the generated site (its sitemaps' pages; the origin answering each in
 * 50 ms) against the same pages read by a loop of sequential fetch_content calls, as an agent without
 * a crawler would, in the same run on its own `npm start` stack (fetch cache off, no politeness
 * delay, 2 pages per host at once): pages per second each way, and the worker's and sidecar's CPU per page.
 */
export async function benchCrawl(pages = 200) {
  const site = await startCrawlSite(SITE_HOST, { canary: "http://127.0.0.9", privateUrl: "http://10.0.0.1/", loopbackName: "http://localhost/" }, { delayMs: LATENCY_MS });
  const persist = mkdtempSync(join(tmpdir(), "edge-web-bench-crawl-"));
  const web = { allowHosts: [SITE_HOST], fetchCache: { enabled: false }, maxStoredResults: 1_000, crawl: { hostDelayMs: 0, hostConcurrency: 2 } };
  const stack: Stack = await startStack({ WEB_CONFIG: JSON.stringify(web), PERSIST_DIR: persist });
  try {
    const session = async () => (await stack.api("POST", "/api/sessions", { source: "bench" })).body.sessionId as string;
    // Crawl: the start page and pages - 1 of its sitemaps' pages.
    const crawlSession = await session();
    let cpu = stackCpu(stack);
    let started = performance.now();
    const crawl = await stack.api("POST", `/api/sessions/${crawlSession}/crawls`, { url: `${site.url}/`, sources: "sitemap", limit: pages });
    if (crawl.status !== 202) throw new Error(`the crawl did not start: ${JSON.stringify(crawl.body)}`);
    let state: any;
    await waitFor(async () => {
      state = (await stack.api("GET", `/api/sessions/${crawlSession}/crawls/${crawl.body.crawlId}`)).body;
      return state.status !== "running";
    }, "the crawl to end", { timeoutMs: 300_000, intervalMs: 50 });
    const crawlMs = performance.now() - started;
    const crawlCpu = cpu.perCall(state.counts.fetched);
    if (state.counts.fetched !== pages) throw new Error(`the crawl fetched ${state.counts.fetched} of ${pages} pages: ${JSON.stringify(state.counts)}`);
    // The same pages, one fetch_content call after another.
    const urls: string[] = [];
    for (let cursor = "0"; cursor !== undefined; ) {
      const read = (await stack.api("GET", `/api/sessions/${crawlSession}/crawls/${crawl.body.crawlId}?cursor=${cursor}`)).body;
      urls.push(...read.pages.map((page: { url: string }) => page.url));
      cursor = read.nextCursor;
    }
    const loopSession = await session();
    cpu = stackCpu(stack);
    started = performance.now();
    for (const url of urls) {
      const answer = await stack.api("POST", `/api/sessions/${loopSession}/tools/fetch_content`, { url });
      if (answer.status !== 200) throw new Error(`fetch_content of ${url} answered ${answer.status}`);
    }
    const loopMs = performance.now() - started;
    const loopCpu = cpu.perCall(urls.length);
    const perSecond = (ms: number) => +((pages * 1_000) / ms).toFixed(1);
    return {
      case: `crawl of ${pages} pages vs a loop of sequential fetch_content calls (origin ${LATENCY_MS} ms a page, npm start)`,
      crawl: { ms: Math.round(crawlMs), pagesPerSecond: perSecond(crawlMs), cpuPerPage: crawlCpu },
      fetchLoop: { ms: Math.round(loopMs), pagesPerSecond: perSecond(loopMs), cpuPerPage: loopCpu },
      speedup: +(loopMs / crawlMs).toFixed(2),
      maxInFlightAtOrigin: site.maxInFlight(),
    };
  } finally {
    await stack.stop();
    await site.close();
    rmSync(persist, { recursive: true, force: true });
  }
}
