import type { CrawlState } from "@edge-web/shared";

/** How often a waiting call looks at its crawl. */
const POLL_MS = 500;

/**
 * A crawl read until it ends, `waitMs` pass or `signal` fires (a `crawl` tool call that waits for its
 * crawl, over MCP or in a turn): the last state read, or undefined when it could not be read.
 */
export async function awaitCrawl(read: () => Promise<CrawlState | undefined>, waitMs: number, signal?: AbortSignal): Promise<CrawlState | undefined> {
  const until = Date.now() + waitMs;
  let state = await read();
  while (state?.status === "running" && Date.now() < until && !signal?.aborted) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, Math.min(POLL_MS, until - Date.now()));
      signal?.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
    });
    state = await read();
  }
  return state;
}
