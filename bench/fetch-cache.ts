import { PAGE_DELAY_MS, type BenchStack } from "./bench-stack.ts";
import { cachedVsUncached } from "./cached-vs-uncached.ts";

/**
 * p50 and the worker's CPU of a cached against an uncached fetch_content of the 15 KB bench page,
 * the origin answering in PAGE_DELAY_MS: the same page again, and a page of its own each round (a
 * query the cache has not seen). The stack runs with the fetch cache off; this case turns it on
 * (PUT /api/config/settings) and back.
 */
export async function benchFetchCache(bench: BenchStack, rounds = 100) {
  const settings = (fetchCache: object | null) =>
    fetch(`${bench.url}/api/config/settings`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ values: { fetchCache } }) }).then((res) => {
      if (res.status !== 200) throw new Error(`PUT /api/config/settings answered ${res.status}`);
    });
  await settings({ enabled: true });
  try {
    const sessionId = await bench.newSession();
    const read = async (url: string, fromCache: boolean) => {
      const res = await bench.post(`/api/sessions/${sessionId}/tools/fetch_content`, { url });
      const body = (await res.json()) as { results?: Array<{ fromCache: boolean }> };
      if (res.status !== 200 || body.results?.[0]?.fromCache !== fromCache) throw new Error(`fetch_content answered ${res.status}, fromCache ${body.results?.[0]?.fromCache}`);
    };
    const page = `${bench.origin.url}/slow-page.html?run=${crypto.randomUUID().slice(0, 8)}`;
    const measured = await cachedVsUncached(bench, rounds, {
      warm: () => read(page, false),
      miss: (i) => read(`${page}&round=${i}`, false),
      hit: () => read(page, true),
    });
    return { case: "fetch_content cached vs uncached (npm start)", originDelayMs: PAGE_DELAY_MS, ...measured };
  } finally {
    await settings(null);
  }
}
