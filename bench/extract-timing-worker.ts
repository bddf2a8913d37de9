import { parentPort, workerData } from "node:worker_threads";
import { loadCorpus } from "./extract-corpus.ts";
import { extractorNamed } from "./extract-extractors.ts";

/**
 * Times one extractor on one corpus in a thread of its own (bench:extract starts one per extractor), so each is timed
 * with its own heap and garbage: run in one thread, an extractor's round paid for the collections of the garbage the
 * others left (ours ran at 46 MB/s there on the article pages, 59 MB/s alone). workerData: { corpus: DIR, extractor:
 * NAME }. It runs the pages untimed until the JIT has warmed up, then answers each message with every page's time, in ms.
 */
const { corpus, extractor: name } = workerData as { corpus: string; extractor: string };
const extractor = extractorNamed(name);
if (!extractor) throw new Error(`no extractor named ${name}`);
const { pages } = loadCorpus(corpus);
// Untimed passes for at least WARM_UP_MS, at least one: a small corpus is one pass in a fraction of a second, and the
// JIT needs about a second of an extractor's work before its rounds settle (ours on the article pages: 358, 179,
// 149, 140, 137 ms for its first five passes).
const WARM_UP_MS = 3_000;
const warmUntil = performance.now() + WARM_UP_MS;
do for (const page of pages) await extractor.run(page);
while (performance.now() < warmUntil);
parentPort?.postMessage("ready");
parentPort?.on("message", async () => {
  const times: number[] = [];
  for (const page of pages) {
    const start = performance.now();
    await extractor.run(page);
    times.push(performance.now() - start);
  }
  parentPort?.postMessage(times);
});
