import { BENCH_PAGE, type BenchStack } from "./bench-stack.ts";
import { percentiles, timeEach } from "./percentiles.ts";

/**
 * p50 of fetch_content through `npm start`'s stack (worker → session object → sidecar → origin →
 * Markdown) against the peer: a plain fetch of the same page straight from the origin.
 */
export async function benchFetchThroughStack(bench: BenchStack, rounds = 200) {
  const sessionId = await bench.newSession();
  const url = `${bench.origin.url}/page.html`;
  const viaStack = async () => {
    const res = await bench.post(`/api/sessions/${sessionId}/tools/fetch_content`, { url });
    if (res.status !== 200) throw new Error(`fetch_content answered ${res.status}`);
    await res.arrayBuffer();
  };
  const direct = async () => {
    await (await fetch(url)).text();
  };
  await timeEach(20, viaStack);
  await timeEach(20, direct);
  const stack = percentiles(await timeEach(rounds, viaStack));
  const peer = percentiles(await timeEach(rounds, direct));
  return { case: "fetch_content through the stack vs a direct fetch", pageBytes: BENCH_PAGE.length, rounds, stack, direct: peer, ratioP50: +(stack.p50 / peer.p50).toFixed(2) };
}
