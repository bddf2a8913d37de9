import { DEFAULT_WEB_CONFIG, fetchOptionsFrom } from "@edge-web/shared";
import { fetchContent } from "../sidecar/src/fetch/fetch-content.ts";
import { createSidecarDeps, settingsFromEnv } from "../sidecar/src/sidecar-deps.ts";
import { BENCH_PAGE, type ApiTarget, type BenchStack } from "./bench-stack.ts";
import { percentiles } from "./percentiles.ts";

/**
 * The same 15 KB page three ways: the sidecar's pipeline called in-process (the peer: what fetching
 * and extracting cost by themselves), fetch_content through the worker served by workerd directly
 * (as deployed: route → session object → sidecar → back), and through `wrangler dev` (npm start).
 * The three take turns round by round, so a machine that speeds up or slows down during the run
 * weighs on all of them alike. The added milliseconds are what the worker, the session object and
 * the sidecar hop cost.
 */
export async function benchFetchPath(bench: BenchStack, workerd: ApiTarget, rounds = 400) {
  const url = `${bench.origin.url}/page.html`;
  const deps = createSidecarDeps(settingsFromEnv({}));
  const options = { ...fetchOptionsFrom(DEFAULT_WEB_CONFIG), allowHosts: ["127.0.0.2"] };
  const viaApi = async (target: ApiTarget) => {
    const sessionId = await target.newSession();
    return async () => {
      const res = await target.post(`/api/sessions/${sessionId}/tools/fetch_content`, { url });
      if (res.status !== 200) throw new Error(`fetch_content answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
    };
  };
  const ways: Record<"inProcess" | "workerd" | "wranglerDev", () => Promise<void>> = {
    inProcess: async () => {
      const page = await fetchContent({ url, preferReader: false, options }, deps);
      if (!page.ok) throw new Error(page.error.message);
    },
    workerd: await viaApi(workerd),
    wranglerDev: await viaApi(bench),
  };
  const samples = { inProcess: [] as number[], workerd: [] as number[], wranglerDev: [] as number[] };
  for (let round = -50; round < rounds; round++) {
    for (const [name, once] of Object.entries(ways) as [keyof typeof ways, () => Promise<void>][]) {
      const started = performance.now();
      await once();
      if (round >= 0) samples[name].push(performance.now() - started);
    }
  }
  await deps.dispatchers.close();
  const [inProcess, viaWorkerd, viaWranglerDev] = [percentiles(samples.inProcess), percentiles(samples.workerd), percentiles(samples.wranglerDev)];
  const added = (p50: number) => +(p50 - inProcess.p50).toFixed(2);
  return {
    case: "fetch_content: sidecar pipeline in-process vs through the worker (workerd directly, wrangler dev)",
    pageBytes: BENCH_PAGE.length,
    rounds,
    inProcess,
    workerd: viaWorkerd,
    wranglerDev: viaWranglerDev,
    addedMsP50: { workerd: added(viaWorkerd.p50), wranglerDev: added(viaWranglerDev.p50) },
    ratioP50: { workerd: +(viaWorkerd.p50 / inProcess.p50).toFixed(2), wranglerDev: +(viaWranglerDev.p50 / inProcess.p50).toFixed(2) },
  };
}
