import { PROVIDER_DELAY_MS, type BenchStack } from "./bench-stack.ts";
import { cachedVsUncached } from "./cached-vs-uncached.ts";

/** p50 and the worker's CPU of a cached against an uncached web_search, the provider answering in PROVIDER_DELAY_MS. */
export async function benchSearchCache(bench: BenchStack, rounds = 100) {
  const sessionId = await bench.newSession();
  const search = async (query: string, expected: "HIT" | "MISS") => {
    const res = await bench.post(`/api/sessions/${sessionId}/tools/web_search`, { query });
    if (res.status !== 200 || res.headers.get("x-cache") !== expected) throw new Error(`web_search answered ${res.status} ${res.headers.get("x-cache")}`);
    await res.arrayBuffer();
  };
  const run = crypto.randomUUID().slice(0, 8);
  const measured = await cachedVsUncached(bench, rounds, {
    warm: () => search(`warm ${run}`, "MISS"),
    miss: (i) => search(`uncached ${run} ${i}`, "MISS"),
    hit: () => search(`warm ${run}`, "HIT"),
  });
  return { case: "web_search cached vs uncached (npm start)", providerDelayMs: PROVIDER_DELAY_MS, ...measured };
}
