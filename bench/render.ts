import { processTreeRssBytes } from "../sidecar/src/render/process-tree-rss.ts";
import { rssMb } from "../test-support/process-stats.ts";
import { BENCH_APP_PAGE, type BenchStack } from "./bench-stack.ts";
import { percentiles } from "./percentiles.ts";

/** Calls in flight for the throughput case: twice SIDECAR_RENDER_CONCURRENCY's default (2), so the pool never idles. */
const IN_FLIGHT = 4;

/** The sidecar's resident memory, alone and with its descendants (the browser's processes). */
function sidecarRssMb(bench: BenchStack): { sidecar: number; withBrowser: number } {
  const pid = bench.stack.pids().sidecar;
  // The tree as the sidecar's browser pool reads it for SIDECAR_RENDER_MAX_RSS_MB.
  return { sidecar: +rssMb(pid).toFixed(1), withBrowser: +(processTreeRssBytes(pid) / 1024 / 1024).toFixed(1) };
}

/**
 * A small script-built page through `npm start`: fetch_content with render "always" (the browser,
 * pool warm) against the peer, the static read of the same page (render "never"), taking turns
 * call by call; then pages per second with IN_FLIGHT calls at once at the default concurrency;
 * and the sidecar's RSS with the browser up, its process tree included.
 */
export async function benchRender(bench: BenchStack, rounds = 40, pages = 40) {
  const url = `${bench.origin.url}/app.html`;
  const before = sidecarRssMb(bench);
  const call = async (sessionId: string, render: "always" | "never") => {
    const res = await bench.post(`/api/sessions/${sessionId}/tools/fetch_content`, { url, render });
    const body = (await res.json()) as { results?: Array<{ content: string; metadata?: { rendered?: boolean } }> };
    if (res.status !== 200) throw new Error(`fetch_content answered ${res.status}: ${JSON.stringify(body)}`);
    const rendered = body.results?.[0]?.metadata?.rendered === true;
    if (rendered !== (render === "always") || (rendered && !body.results![0]!.content.includes("Paragraph 19"))) throw new Error(`render ${render} answered the wrong page`);
  };
  const sessionId = await bench.newSession();
  // The first render starts the browser, which on a cold machine can take longer than a call's deadline.
  let coldStarts = 0;
  for (;;) {
    try {
      await call(sessionId, "always");
      break;
    } catch (error) {
      if (++coldStarts === 3) throw error;
    }
  }
  const samples = { always: [] as number[], never: [] as number[] };
  for (let round = -5; round < rounds; round++) {
    for (const render of ["always", "never"] as const) {
      const started = performance.now();
      await call(sessionId, render);
      if (round >= 0) samples[render].push(performance.now() - started);
    }
  }
  const withBrowser = sidecarRssMb(bench);
  const perSecond = async (render: "always" | "never") => {
    const sessions = await Promise.all(Array.from({ length: IN_FLIGHT }, () => bench.newSession()));
    let next = 0;
    const started = performance.now();
    await Promise.all(sessions.map(async (id) => {
      while (next++ < pages) await call(id, render);
    }));
    return +(pages / ((performance.now() - started) / 1000)).toFixed(2);
  };
  const throughput = { always: await perSecond("always"), never: await perSecond("never") };
  const [rendered, staticRead] = [percentiles(samples.always), percentiles(samples.never)];
  return {
    case: "fetch_content of a script-built page: rendered (always) vs the static read (never) through npm start",
    pageBytes: BENCH_APP_PAGE.length,
    rounds,
    rendered,
    staticRead,
    failedWhileTheBrowserStarted: coldStarts,
    ratioP50: +(rendered.p50 / staticRead.p50).toFixed(2),
    ratioP95: +(rendered.p95 / staticRead.p95).toFixed(2),
    pagesPerSecond: { rendered: throughput.always, staticRead: throughput.never, inFlight: IN_FLIGHT },
    throughputRatio: +(throughput.never / throughput.always).toFixed(2),
    sidecarRssMb: { beforeFirstRender: before, browserUp: withBrowser, afterThroughput: sidecarRssMb(bench) },
  };
}
