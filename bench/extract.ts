import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { htmlHandler } from "../sidecar/src/extract/html-handler.ts";
import { type CorpusPage, loadCorpus } from "./extract-corpus.ts";
import { defuddleMarkdown, readabilityMarkdown, readabilityText } from "./extract-peer.ts";
import { type Outputs, scoreOutputs } from "./extract-score.ts";
import { markdownPlainText } from "./markdown-plain-text.ts";
import { percentiles } from "./percentiles.ts";

/**
 * `npm run bench:extract -- --corpus DIR [--out FILE] [--rounds N]`: our HTML extraction against Readability on
 * linkedom (its text, and through Turndown, the peer for Markdown output) and Defuddle, on the same pages in the
 * same run. DIR holds html/ and either ground-truth.json (article bodies) or segments.json (segments); F1 is
 * reported over all pages and separately over the development part and the held-out third (extract-holdout.ts).
 * Prints one line per extractor, the memory line, and last one JSON object with all figures; --out writes our
 * outputs as the benchmark's own tool reads them.
 */

interface Extractor {
  name: string;
  /** Whether the output is Markdown (read as text for article-body scoring) or already text. */
  markdown: boolean;
  run: (page: CorpusPage) => string | Promise<string>;
}

const EXTRACTORS: Extractor[] = [
  { name: "ours", markdown: true, run: (page) => htmlHandler.extract({ text: page.html, url: page.url, mime: "text/html" }).content },
  { name: "readability", markdown: false, run: (page) => readabilityText(page.html).text },
  { name: "readability+turndown", markdown: true, run: (page) => readabilityMarkdown(page.html) },
  { name: "defuddle", markdown: true, run: (page) => defuddleMarkdown(page.html, page.url) },
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

const results: { name: string; figures: Record<string, unknown>; mbPerSec: number; outputs: Outputs }[] = [];
for (const extractor of EXTRACTORS) {
  // The first pass collects the outputs and warms the JIT; the timed rounds follow.
  const outputs: Record<string, { articleBody: string }> = {};
  for (const page of pages) outputs[page.id] = { articleBody: await extractor.run(page) };
  const perPage = pages.map(() => [] as number[]);
  let totalMs = 0;
  for (let round = 0; round < rounds; round++) {
    for (const [i, page] of pages.entries()) {
      const start = performance.now();
      await extractor.run(page);
      const ms = performance.now() - start;
      totalMs += ms;
      perPage[i]?.push(ms);
    }
  }
  const medians = perPage.map((samples) => samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)] ?? 0);
  const mbPerSec = round2((totalBytes * rounds) / 1024 / 1024 / (totalMs / 1000));
  const { p50, p95 } = percentiles(medians);
  const figures = { mbPerSec, p50Ms: p50, p95Ms: p95, ...(truth && scoreOutputs(truth, outputs, extractor.markdown)) };
  console.log(`${extractor.name}: ${JSON.stringify(figures)}`);
  results.push({ name: extractor.name, figures, mbPerSec, outputs });
}

const byName = (name: string) => results.find((result) => result.name === name);
const ratio = (peer: string): number | null => {
  const ours = byName("ours")?.mbPerSec;
  const theirs = byName(peer)?.mbPerSec;
  return ours && theirs ? round2(ours / theirs) : null;
};

// In a process of its own, so that its peak resident memory is the extraction's and nothing else's.
const memory = JSON.parse(
  execFileSync(process.execPath, [join(import.meta.dirname, "extract-memory.ts")], { encoding: "utf8" }).trim(),
) as Record<string, number>;
console.log(`memory (10 MB page): ${JSON.stringify(memory)}`);

if (values.out) {
  // What each benchmark's own tool reads: plain text for article bodies, the Markdown itself for segments.
  const outputs = Object.entries(byName("ours")?.outputs ?? {}).map(([id, { articleBody }]) => [
    id,
    { articleBody: truth?.kind === "articles" ? markdownPlainText(articleBody) : articleBody },
  ]);
  writeFileSync(values.out, `${JSON.stringify(Object.fromEntries(outputs), null, 1)}\n`);
}

console.log(
  JSON.stringify({
    pages: pages.length,
    kind: truth?.kind ?? null,
    mb: round2(totalBytes / 1024 / 1024),
    rounds,
    ours: byName("ours")?.figures,
    readability: byName("readability")?.figures,
    readabilityTurndown: byName("readability+turndown")?.figures,
    defuddle: byName("defuddle")?.figures,
    speedRatio: ratio("readability"),
    speedRatioMarkdown: ratio("readability+turndown"),
    speedRatioDefuddle: ratio("defuddle"),
    memory,
  }),
);
