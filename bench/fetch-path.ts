import { DEFAULT_WEB_CONFIG, fetchOptionsFrom } from "@edge-web/shared";
import { fetchContent } from "../sidecar/src/fetch/fetch-content.ts";
import { createSidecarDeps, settingsFromEnv } from "../sidecar/src/sidecar-deps.ts";
import { BENCH_PAGE, type BenchStack } from "./bench-stack.ts";
import { percentiles } from "./percentiles.ts";
import { ownCpu, stackCpu } from "./stack-cpu.ts";

/**
 * The same 15 KB page two ways: the sidecar's pipeline called in-process (the peer: what fetching
 * and extracting cost by themselves, as a user doing it in their own process would pay), and
 * fetch_content through `npm start` (route → session object → sidecar → back). The two take
 * turns round by round, so a machine that speeds up or slows down weighs on both alike. Besides
 * time, the CPU each side spends per call: this process for the in-process pipeline, and the
 * worker's workerd process and the sidecar's from /proc for the stack.
 */
export async function benchFetchPath(bench: BenchStack, rounds = 400) {
  const url = `${bench.origin.url}/page.html`;
  const deps = createSidecarDeps(settingsFromEnv({}));
  const options = { ...fetchOptionsFrom(DEFAULT_WEB_CONFIG), allowHosts: ["127.0.0.2"] };
  const sessionId = await bench.newSession();
  const inProcess = async () => {
    const page = await fetchContent({ url, preferReader: false, options }, deps);
    if (!page.ok) throw new Error(page.error.message);
  };
  const viaStack = async () => {
    const res = await bench.post(`/api/sessions/${sessionId}/tools/fetch_content`, { url });
    if (res.status !== 200) throw new Error(`fetch_content answered ${res.status}: ${await res.text()}`);
    await res.arrayBuffer();
  };
  const samples = { inProcess: [] as number[], npmStart: [] as number[] };
  let inProcessCpu = 0;
  let cpu = stackCpu(bench.stack);
  for (let round = -50; round < rounds; round++) {
    if (round === 0) {
      cpu = stackCpu(bench.stack);
      inProcessCpu = 0;
    }
    let started = performance.now();
    inProcessCpu += await ownCpu(inProcess);
    if (round >= 0) samples.inProcess.push(performance.now() - started);
    started = performance.now();
    await viaStack();
    if (round >= 0) samples.npmStart.push(performance.now() - started);
  }
  const stackCpuPerCall = cpu.perCall(rounds);
  await deps.dispatchers.close();
  const [peer, served] = [percentiles(samples.inProcess), percentiles(samples.npmStart)];
  return {
    case: "fetch_content: sidecar pipeline in-process vs through npm start",
    pageBytes: BENCH_PAGE.length,
    rounds,
    inProcess: peer,
    npmStart: served,
    addedMsP50: +(served.p50 - peer.p50).toFixed(2),
    ratioP50: +(served.p50 / peer.p50).toFixed(2),
    cpuMsPerCall: { inProcess: +(inProcessCpu / rounds).toFixed(2), worker: stackCpuPerCall.workerMs, sidecar: stackCpuPerCall.sidecarMs },
    workerCpuRatioToInProcess: +(stackCpuPerCall.workerMs / (inProcessCpu / rounds)).toFixed(2),
  };
}
