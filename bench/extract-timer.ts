import { loadCorpus } from "./extract-corpus.ts";
import { extractorNamed, type Output } from "./extract-extractors.ts";
import { applyV8Flags } from "../sidecar/src/v8-flags.ts";

// Every extractor runs with the V8 settings the sidecar runs with.
applyV8Flags();

/**
 * `node bench/extract-timer.ts DIR NAME`, started by bench:extract with an IPC channel, one process per extractor: times
 * one extractor on one corpus with a heap, a JIT and a garbage collector of its own. In one thread each round paid for
 * the collections of the garbage the others left (ours 46 MB/s on the article pages beside the peers, 59 MB/s alone),
 * and in worker threads of one process ours ran a third slower on WCEB while Defuddle's thread merely existed (590 ms
 * a round alone, 1,000 beside it; 600 in processes of their own). It runs the pages untimed until the JIT has warmed
 * up and sends the first pass's outputs, then answers each message with every page's time, in ms.
 */
const [corpus = "", name = ""] = process.argv.slice(2);
const extractor = extractorNamed(name);
if (!extractor) throw new Error(`no extractor named ${name}`);
const { pages } = loadCorpus(corpus);
// Untimed passes for at least WARM_UP_MS, at least one: a small corpus is one pass in a fraction of a second, and the
// JIT needs about a second of an extractor's work before its rounds settle (ours on the article pages: 358, 179,
// 149, 140, 137 ms for its first five passes).
const WARM_UP_MS = 3_000;
const warmUntil = performance.now() + WARM_UP_MS;
const outputs: Output[] = [];
for (const page of pages) outputs.push(await extractor.run(page));
while (performance.now() < warmUntil) for (const page of pages) await extractor.run(page);
process.send?.(outputs);
process.on("message", async () => {
  const times: number[] = [];
  for (const page of pages) {
    const start = performance.now();
    await extractor.run(page);
    times.push(performance.now() - start);
  }
  process.send?.(times);
});
