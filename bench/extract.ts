import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { htmlHandler } from "../sidecar/src/extract/html-handler.ts";
import { loadCorpus, type CorpusPage } from "./extract-corpus.ts";
import { scoreCorpus } from "./extract-f1.ts";
import { readabilityMarkdown, readabilityText } from "./extract-peer.ts";
import { markdownPlainText } from "./markdown-plain-text.ts";
import { percentiles } from "./percentiles.ts";

/**
 * `npm run bench:extract -- --corpus DIR [--out FILE] [--rounds N]`: our HTML extraction against
 * Readability on linkedom (and Readability + Turndown, the peer for Markdown output) on the same pages
 * in the same run. Prints one line per extractor, the memory line, and last one JSON object with all figures.
 */

interface Extractor {
  name: string;
  /** The page's main content as plain text, for scoring. */
  run: (page: CorpusPage) => string;
}

const EXTRACTORS: Extractor[] = [
  {
    name: "ours",
    run: (page) => markdownPlainText(htmlHandler.extract({ text: page.html, url: page.url, mime: "text/html" }).content),
  },
  { name: "readability", run: (page) => readabilityText(page.html).text },
  { name: "readability+turndown", run: (page) => markdownPlainText(readabilityMarkdown(page.html)) },
];

const { values } = parseArgs({
  options: { corpus: { type: "string" }, out: { type: "string" }, rounds: { type: "string", default: "5" } },
});
if (!values.corpus) {
  console.error("usage: npm run bench:extract -- --corpus DIR [--out FILE] [--rounds N]");
  process.exit(2);
}
const rounds = Math.max(1, Number.parseInt(values.rounds, 10) || 1);
const { pages, truth } = loadCorpus(values.corpus);
const totalBytes = pages.reduce((sum, page) => sum + page.bytes, 0);
const round2 = (value: number): number => +value.toFixed(2);

const results = EXTRACTORS.map((extractor) => {
  // The first pass collects the outputs and warms the JIT; the timed rounds follow.
  const outputs: Record<string, { articleBody: string }> = {};
  for (const page of pages) outputs[page.id] = { articleBody: extractor.run(page) };
  const perPage = pages.map(() => [] as number[]);
  let totalMs = 0;
  for (let round = 0; round < rounds; round++) {
    pages.forEach((page, i) => {
      const start = performance.now();
      extractor.run(page);
      const ms = performance.now() - start;
      totalMs += ms;
      perPage[i]?.push(ms);
    });
  }
  const medians = perPage.map((samples) => samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)] ?? 0);
  const score = truth ? scoreCorpus(truth, outputs) : undefined;
  const figures = {
    mbPerSec: round2((totalBytes * rounds) / 1024 / 1024 / (totalMs / 1000)),
    ...(({ p50, p95 }) => ({ p50Ms: p50, p95Ms: p95 }))(percentiles(medians)),
    ...(score && { f1: score.f1, precision: score.precision, recall: score.recall }),
  };
  console.log(`${extractor.name}: ${JSON.stringify(figures)}`);
  return { name: extractor.name, figures, outputs };
});

const figuresOf = (name: string) => results.find((result) => result.name === name)?.figures;
const ours = figuresOf("ours");
const peer = figuresOf("readability");
const peerMarkdown = figuresOf("readability+turndown");

// In a process of its own, so that its peak resident memory is the extraction's and nothing else's.
const memory = JSON.parse(
  execFileSync(process.execPath, [join(import.meta.dirname, "extract-memory.ts")], { encoding: "utf8" }).trim(),
) as Record<string, number>;
console.log(`memory (10 MB page): ${JSON.stringify(memory)}`);

if (values.out) {
  writeFileSync(values.out, `${JSON.stringify(results.find((result) => result.name === "ours")?.outputs ?? {}, null, 1)}\n`);
}

console.log(
  JSON.stringify({
    pages: pages.length,
    mb: round2(totalBytes / 1024 / 1024),
    rounds,
    ours,
    readability: peer,
    readabilityTurndown: peerMarkdown,
    speedRatio: ours && peer ? round2(ours.mbPerSec / peer.mbPerSec) : null,
    speedRatioMarkdown: ours && peerMarkdown ? round2(ours.mbPerSec / peerMarkdown.mbPerSec) : null,
    memory,
  }),
);
