import { PROVIDER_DELAY_MS, type BenchStack } from "./bench-stack.ts";
import { percentiles, timeEach } from "./percentiles.ts";
import { stackCpu } from "./stack-cpu.ts";

/** p50 and the worker's CPU of a cached against an uncached web_search, the provider answering in PROVIDER_DELAY_MS. */
export async function benchSearchCache(bench: BenchStack, rounds = 100) {
  const sessionId = await bench.newSession();
  const search = async (query: string, expected: "HIT" | "MISS") => {
    const res = await bench.post(`/api/sessions/${sessionId}/tools/web_search`, { query });
    if (res.status !== 200 || res.headers.get("x-cache") !== expected) throw new Error(`web_search answered ${res.status} ${res.headers.get("x-cache")}`);
    await res.arrayBuffer();
  };
  const run = crypto.randomUUID().slice(0, 8);
  await search(`warm ${run}`, "MISS");
  let cpu = stackCpu(bench.stack);
  const uncached = percentiles(await timeEach(rounds, (i) => search(`uncached ${run} ${i}`, "MISS")));
  const uncachedCpu = cpu.perCall(rounds);
  cpu = stackCpu(bench.stack);
  const cached = percentiles(await timeEach(rounds, () => search(`warm ${run}`, "HIT")));
  const cachedCpu = cpu.perCall(rounds);
  return {
    case: "web_search cached vs uncached (npm start)",
    providerDelayMs: PROVIDER_DELAY_MS,
    rounds,
    uncached,
    cached,
    ratioP50: +(cached.p50 / uncached.p50).toFixed(3),
    workerCpuMsPerCall: { uncached: uncachedCpu.workerMs, cached: cachedCpu.workerMs },
  };
}
