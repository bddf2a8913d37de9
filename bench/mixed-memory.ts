import { setTimeout as sleep } from "node:timers/promises";
import { buildPdf } from "../sidecar/test/support/document-fixtures.ts";
import { routes, send, startOrigin } from "../test-support/origin.ts";
import { sseReader } from "../test-support/sse-reader.ts";
import { benchArticle } from "./bench-article.ts";
import type { BenchStack } from "./bench-stack.ts";
import { rssMb } from "../test-support/process-stats.ts";

/** About 5 KB of article. */
const ARTICLE = benchArticle(5_000, "An article");

/** One session's work, round after round: each tool the mixed scenario names, and an agent turn calling one. */
type Calls = { ok: number; failed: Record<string, number> };
const failed = (calls: Calls, what: string) => void (calls.failed[what] = (calls.failed[what] ?? 0) + 1);

/** The scenario's kinds of work; a run may do some of them only, to see which one memory follows. */
export const WORK = ["fetch", "read", "convert", "turn"] as const;
export type Work = (typeof WORK)[number];

async function sessionLoop(bench: BenchStack, urls: { article: string; pdf: string }, until: number, calls: Calls, work: readonly Work[]) {
  const sessionId = await bench.newSession();
  const stream = sseReader((await fetch(`${bench.url}/api/sessions/${sessionId}/stream`)).body!);
  // The stream is read all along, as a client would; a turn's end is its text, then its finish.
  let turnEnded: (() => void) | undefined;
  let sawText = false;
  const reading = (async () => {
    for (let frame = await stream.next(); frame; frame = await stream.next()) {
      const type = frame.data?.chunk?.type;
      if (type === "text-delta") sawText = true;
      if (type === "finish" && sawText && turnEnded) {
        sawText = false;
        turnEnded();
      }
    }
  })().catch(() => {});
  const tool = async (name: string, params: object) => {
    const res = await bench.post(`/api/sessions/${sessionId}/tools/${name}`, params);
    const body = (await res.json()) as { responseId?: string; error?: { code: string } };
    if (res.status === 200) calls.ok++;
    else failed(calls, `${name} ${res.status} ${body.error?.code}`);
    return body;
  };
  while (Date.now() < until) {
    const page = work.includes("fetch") || work.includes("read") ? await tool("fetch_content", { url: urls.article }) : {};
    if (work.includes("read")) await tool("get_search_content", { responseId: page.responseId ?? "none", urlIndex: 0, maxChars: 2_000 });
    if (work.includes("convert")) await tool("convert_content", { url: urls.pdf });
    if (!work.includes("turn")) continue;
    const ended = new Promise<void>((resolve) => (turnEnded = resolve));
    bench.model.script.script(
      { toolCalls: [{ name: "fetch_content", arguments: { url: urls.article } }], usage: { input: 50, output: 10 } },
      { text: ["The", " article", " says", " so."], usage: { input: 80, output: 5 } },
    );
    const res = await bench.post(`/api/sessions/${sessionId}/messages`, { message: "What does the article say?" });
    await res.arrayBuffer();
    if (res.status !== 200) failed(calls, `turn ${res.status}`);
    else {
      await Promise.race([ended, sleep(30_000)]);
      calls.ok++;
    }
  }
  await stream.cancel().catch(() => {});
  await reading;
}

const peak = (samples: { at: number; mb: number }[], from: number, to: number) => Math.max(...samples.filter((s) => s.at >= from && s.at < to).map((s) => s.mb));

/**
 * The mixed-work memory scenario: `sessions` sessions at once, each fetching a 5 KB article,
 * reading its stored result back, converting a 6-page PDF and running an agent turn with a tool
 * call, round after round for `seconds` (`work` picks some of these only). RSS (VmRSS) of the user worker's workerd process and the
 * sidecar is sampled throughout; idle is their size after one warm-up round of every call. A
 * process levels off when its last minute's peak is within 25 % of its first minute's.
 */
export async function benchMixedMemory(bench: BenchStack, sessions = 16, seconds = 180, work: readonly Work[] = WORK) {
  const pdf = Buffer.from(await buildPdf({ pages: 6 }));
  const origin = await startOrigin("127.0.0.2", routes({ "/article.html": send(200, "text/html; charset=utf-8", ARTICLE), "/report.pdf": send(200, "application/pdf", pdf) }));
  try {
    const urls = { article: `${origin.url}/article.html`, pdf: `${origin.url}/report.pdf` };
    const pids = bench.stack.pids();
    const calls: Calls = { ok: 0, failed: {} };
    await sessionLoop(bench, urls, 0, calls, WORK);
    await sleep(2_000);
    const idle = { worker: rssMb(pids.worker), sidecar: rssMb(pids.sidecar) };

    const started = Date.now();
    const samples = { worker: [] as { at: number; mb: number }[], sidecar: [] as { at: number; mb: number }[] };
    // The fake model logs every request for tests to read; over minutes of growing histories that log
    // would fill this process's heap, so the run keeps none of it.
    const forget = setInterval(() => (bench.model.script.requests.length = 0), 5_000);
    const sampler = setInterval(() => {
      const at = (Date.now() - started) / 1000;
      samples.worker.push({ at, mb: rssMb(pids.worker) });
      samples.sidecar.push({ at, mb: rssMb(pids.sidecar) });
    }, 2_000);
    await Promise.all(Array.from({ length: sessions }, () => sessionLoop(bench, urls, started + seconds * 1000, calls, work)));
    clearInterval(sampler);
    clearInterval(forget);

    const minute = Math.min(60, seconds / 3);
    const summary = (name: "worker" | "sidecar") => {
      const first = peak(samples[name], 0, minute);
      const last = peak(samples[name], seconds - minute, Infinity);
      return { idleMb: idle[name], firstMinutePeakMb: first, lastMinutePeakMb: last, lastVsFirst: +(last / first).toFixed(2), levelsOff: last <= first * 1.25 };
    };
    const worker = summary("worker");
    const growthMb = worker.lastMinutePeakMb - worker.idleMb;
    const sidecar = summary("sidecar");
    const everyTen = (list: { at: number; mb: number }[]) => list.filter((_, i) => i % 5 === 4).map((s) => s.mb);
    return {
      case: "memory: mixed work (fetch_content 5 KB, get_search_content, convert_content 6-page PDF, agent turn with a tool call) over many sessions",
      sessions,
      seconds,
      work,
      calls,
      // Growth follows the calls served as well as the sessions, so both ratios are printed.
      worker: { ...worker, perActiveSessionMb: +(growthMb / sessions).toFixed(2), per1000CallsMb: +((growthMb / calls.ok) * 1000).toFixed(2) },
      sidecar: { ...sidecar, afterWarmUpMb: peak(samples.sidecar, 0, minute) },
      rssEvery10sMb: { worker: everyTen(samples.worker), sidecar: everyTen(samples.sidecar) },
    };
  } finally {
    await origin.close();
  }
}
