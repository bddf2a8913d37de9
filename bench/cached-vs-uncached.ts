import type { BenchStack } from "./bench-stack.ts";
import { percentiles, timeEach } from "./percentiles.ts";
import { stackCpu } from "./stack-cpu.ts";

/** What a case calls: the first read of the key it hits, a miss (a key of its own each round), a hit. */
export interface CacheCalls {
  warm(): Promise<void>;
  miss(round: number): Promise<void>;
  hit(): Promise<void>;
}

/** p50 and the worker's CPU of `rounds` calls that miss the cache against `rounds` that hit it, with the ratio of p50s. */
export async function cachedVsUncached(bench: BenchStack, rounds: number, calls: CacheCalls) {
  await calls.warm();
  let cpu = stackCpu(bench.stack);
  const uncached = percentiles(await timeEach(rounds, (i) => calls.miss(i)));
  const uncachedCpu = cpu.perCall(rounds);
  cpu = stackCpu(bench.stack);
  const cached = percentiles(await timeEach(rounds, () => calls.hit()));
  const cachedCpu = cpu.perCall(rounds);
  return { rounds, uncached, cached, ratioP50: +(cached.p50 / uncached.p50).toFixed(3), workerCpuMsPerCall: { uncached: uncachedCpu.workerMs, cached: cachedCpu.workerMs } };
}
