import { execFileSync, fork } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { parseArgs } from "node:util";
import type { FallbackUse } from "../sidecar/src/extract/html-handler.ts";
import { loadBaseline } from "./extract-baseline.ts";
import { CORPORA_DIR, type CorpusPage, type CorpusTruth, EXTRACTION_CORPORA, loadCorpus } from "./extract-corpus.ts";
import { type Extractor, OURS, type Output, PEERS } from "./extract-extractors.ts";
import { type Outputs, pageF1s, type Scores, scoreOutputs } from "./extract-score.ts";
import { markdownPlainText } from "./markdown-plain-text.ts";
import { type PairedBootstrap, pairedBootstrap } from "./paired-bootstrap.ts";
import { percentiles } from "./percentiles.ts";

/**
 * `npm run bench:extract -- [--corpus DIR …] [--skip-peers] [--out DIR] [--rounds N] [--baseline REV|none]`: our HTML extraction against
 * Readability on linkedom (its text, and through Turndown, the peer for Markdown output) and Defuddle, on the same
 * pages in the same run; without --corpus, on all four development corpora in ../shared/corpus. Each DIR holds
 * html/ and either ground-truth.json (article bodies) or segments.json (segments); F1 is reported over all pages and
 * separately over the development part and the held-out third (extract-holdout.ts), and on a corpus whose ground
 * truth notes reader comments (Dragnet), over the pages with comments and those without; each timed round runs the
 * extractors in turn, each in a process of its own. Prints one line per corpus and extractor, how often our second method ran, one table over all
 * corpora, the comparison with the baseline's extractor, the memory line, and last one JSON object with all figures. --skip-peers runs ours alone (a quick run); --out writes our outputs as each
 * benchmark's own tool reads them, one file per corpus. The baseline is the sidecar's extractor at REV (default: the
 * previous commit, or HEAD while sidecar/src has uncommitted changes; extract-baseline.ts): both score every page,
 * and a paired bootstrap over the pages (paired-bootstrap.ts) says per corpus whether ours is up, down or within noise.
 */

const { values } = parseArgs({
  options: {
    corpus: { type: "string", multiple: true },
    out: { type: "string" },
    rounds: { type: "string", default: "5" },
    "skip-peers": { type: "boolean", default: false },
    baseline: { type: "string" },
  },
});
const loaded = await loadBaseline(values.baseline);
if (!loaded.ok) {
  console.error(`bench:extract: ${loaded.error.code}: ${loaded.error.message}`);
  process.exit(2);
}
const baseline = loaded.value;
console.log(baseline ? `baseline: ${baseline.label} = ${baseline.sha.slice(0, 12)}` : "baseline: none");
const corpora = values.corpus?.length ? values.corpus : EXTRACTION_CORPORA.map((name) => join(CORPORA_DIR, name));
const rounds = Math.max(1, Number.parseInt(values.rounds, 10) || 1);
const extractors = values["skip-peers"] ? [OURS] : [OURS, ...PEERS];
const fallbackUses = new Map<string, FallbackUse>();
const round2 = (value: number): number => +value.toFixed(2);
const megabytesPerSecond = (bytes: number, ms: number): number => bytes / 1024 / 1024 / (ms / 1000);

interface Result {
  name: string;
  figures: { mbPerSec: number; p50Ms: number; p95Ms: number } & Partial<Scores>;
  /** MB/s in each timed round: how far one round's rate strays from the run's. */
  roundMbPerSec: number[];
  outputs: Outputs;
}

/**
 * Runs every extractor on every page, each in a process of its own (extract-timer.ts) that warms up on the pages and
 * sends its first pass's outputs; each timed round then has the extractors run over all pages one after another, so
 * each is timed with its own heap and garbage; over several rounds the load of a shared machine changes for all of
 * them alike.
 */
async function measure(extractors: Extractor[], dir: string, pages: CorpusPage[], truth: CorpusTruth | undefined, totalBytes: number): Promise<Result[]> {
  // One at a time: each warms up with the machine to itself, as it is then timed.
  const timers: Timer[] = [];
  for (const extractor of extractors) timers.push(await startTimer(dir, extractor.name));
  const outputs = timers.map((timer) => Object.fromEntries(pages.map((page, i) => [page.id, { articleBody: timer.outputs[i]?.text ?? "" }])));
  const ours = timers[extractors.indexOf(OURS)];
  for (const [i, page] of pages.entries()) {
    const fallback = ours?.outputs[i]?.fallback;
    if (fallback) fallbackUses.set(page.id, fallback);
  }
  const perPage = extractors.map(() => pages.map(() => [] as number[]));
  const roundMs = extractors.map(() => [] as number[]);
  try {
    for (let round = 0; round < rounds; round++) {
      for (const [e, timer] of timers.entries()) {
        let ms = 0;
        for (const [i, pageMs] of (await timer.round()).entries()) {
          ms += pageMs;
          perPage[e]?.[i]?.push(pageMs);
        }
        roundMs[e]?.push(ms);
      }
    }
  } finally {
    for (const timer of timers) timer.stop();
  }
  return extractors.map((extractor, e) => {
    const medians = (perPage[e] ?? []).map((samples) => samples.sort((x, y) => x - y)[Math.floor(samples.length / 2)] ?? 0);
    const ms = roundMs[e] ?? [];
    const mbPerSec = round2(megabytesPerSecond(totalBytes * ms.length, ms.reduce((sum, round) => sum + round, 0)));
    const { p50, p95 } = percentiles(medians);
    const own = outputs[e] ?? {};
    const roundMbPerSec = ms.map((round) => megabytesPerSecond(totalBytes, round));
    return { name: extractor.name, figures: { mbPerSec, p50Ms: p50, p95Ms: p95, ...(truth && scoreOutputs(truth, own, extractor.markdown)) }, roundMbPerSec, outputs: own };
  });
}

/** A timing process for one extractor on one corpus, once it has warmed up: its outputs, and each round() is every page's time, in ms. */
interface Timer {
  outputs: Output[];
  round: () => Promise<number[]>;
  stop: () => void;
}

async function startTimer(dir: string, extractor: string): Promise<Timer> {
  const child = fork(join(import.meta.dirname, "extract-timer.ts"), [dir, extractor]);
  const next = <T>(): Promise<T> =>
    new Promise((resolve, reject) => {
      const exited = (code: number | null) => reject(new Error(`the timing process for ${extractor} exited (${code})`));
      child.once("exit", exited);
      child.once("message", (value) => {
        child.off("exit", exited);
        resolve(value as T);
      });
    });
  const outputs = await next<Output[]>();
  return {
    outputs,
    round: () => {
      const times = next<number[]>();
      child.send("round");
      return times;
    },
    stop: () => child.kill(),
  };
}

/** How often our second method ran on a corpus's pages, and how often its result was the one shown. */
function fallbackSummary(pages: CorpusPage[]): { ran: number; chosen: number; pages: number } {
  let ran = 0;
  let chosen = 0;
  for (const page of pages) {
    const use = fallbackUses.get(page.id);
    if (use !== "not-run") ran++;
    if (use === "chosen") chosen++;
  }
  return { ran, chosen, pages: pages.length };
}

/** Both extractors' per-page F1 on a corpus, compared page by page (not timed: the baseline runs once). */
function compareWithBaseline(pages: CorpusPage[], truth: CorpusTruth, ours: Outputs): PairedBootstrap | undefined {
  if (!baseline) return undefined;
  const theirs = Object.fromEntries(pages.map((page) => [page.id, { articleBody: baseline.extract(page.html, page.url) }]));
  const ids = Object.keys(truth.kind === "articles" ? truth.bodies : truth.segments).sort();
  return pairedBootstrap(pageF1s(truth, theirs, true, ids), pageF1s(truth, ours, true, ids));
}

const report: Record<string, unknown>[] = [];
const comparisons: { corpus: string; comparison: PairedBootstrap }[] = [];
const tableRows: string[] = [];
const commentRows: string[] = [];
const cell = (score: { f1: number; precision: number; recall: number } | undefined): string =>
  score ? `${score.f1.toFixed(3)} / ${score.precision.toFixed(3)} / ${score.recall.toFixed(3)}` : "—";
for (const dir of corpora) {
  const name = basename(dir.replace(/\/+$/, ""));
  const { pages, truth } = loadCorpus(dir);
  const totalBytes = pages.reduce((sum, page) => sum + page.bytes, 0);
  const results = await measure(extractors, dir, pages, truth, totalBytes);
  for (const result of results) console.log(`${name} ${result.name}: ${JSON.stringify(result.figures)}`);
  const fallback = fallbackSummary(pages);
  console.log(`${name} fallback: ran on ${fallback.ran} of ${fallback.pages} pages, chosen on ${fallback.chosen}`);
  const byName = (extractorName: string) => results.find((result) => result.name === extractorName);
  const comparison = truth && compareWithBaseline(pages, truth, byName("ours")?.outputs ?? {});
  if (comparison) comparisons.push({ corpus: name, comparison });
  const ratio = (peer: string): number | null => {
    const ours = byName("ours")?.figures.mbPerSec;
    const theirs = byName(peer)?.figures.mbPerSec;
    return ours && theirs ? round2(ours / theirs) : null;
  };
  // The ratio in each round (both timed in it, one after the other): the run's ratio is only as firm as their spread.
  const roundRatios = (peer: string): { min: number; max: number } | null => {
    const ours = byName("ours")?.roundMbPerSec ?? [];
    const theirs = byName(peer)?.roundMbPerSec ?? [];
    const ratios = ours.flatMap((rate, round) => (theirs[round] ? [rate / (theirs[round] as number)] : []));
    return ratios.length > 1 ? { min: round2(Math.min(...ratios)), max: round2(Math.max(...ratios)) } : null;
  };
  for (const { name: extractorName, figures } of results) {
    const spread = roundRatios(extractorName);
    const speed =
      extractorName === "ours" ? `${figures.mbPerSec}` : `${figures.mbPerSec} (ours ${ratio(extractorName)}×${spread ? `; rounds ${spread.min}–${spread.max}×` : ""})`;
    const ran = extractorName === "ours" ? `${fallback.ran} / ${fallback.chosen}` : "";
    tableRows.push(`| ${name} | ${extractorName} | ${cell(figures.dev)} | ${cell(figures.heldOut)} | ${cell(figures.f1 === undefined ? undefined : (figures as Scores))} | ${speed} | ${ran} |`);
    if (figures.withComments) commentRows.push(`| ${name} | ${extractorName} | ${cell(figures.withComments)} | ${cell(figures.withoutComments)} |`);
  }
  if (values.out) {
    mkdirSync(values.out, { recursive: true });
    // What each benchmark's own tool reads: plain text for article bodies, the Markdown itself for segments.
    const outputs = Object.entries(byName("ours")?.outputs ?? {}).map(([id, { articleBody }]) => [
      id,
      { articleBody: truth?.kind === "articles" ? markdownPlainText(articleBody) : articleBody },
    ]);
    writeFileSync(join(values.out, `${name}.json`), `${JSON.stringify(Object.fromEntries(outputs), null, 1)}\n`);
  }
  report.push({
    corpus: name,
    pages: pages.length,
    kind: truth?.kind ?? null,
    mb: round2(totalBytes / 1024 / 1024),
    fallback,
    ...Object.fromEntries(results.map(({ name: extractorName, figures }) => [extractorName, figures])),
    speedRatio: ratio("readability"),
    speedRatioRounds: roundRatios("readability"),
    speedRatioMarkdown: ratio("readability+turndown"),
    speedRatioDefuddle: ratio("defuddle"),
    ...(comparison && { baseline: comparison }),
  });
}

console.log(
  [
    "",
    "| corpus | extractor | dev F1 / P / R | held-out F1 / P / R | all F1 / P / R | MB/s | fallback ran / chosen |",
    "|---|---|---|---|---|---|---|",
    ...tableRows,
    "",
    ...(commentRows.length > 0 ? ["| corpus | extractor | pages with comments F1 / P / R | without F1 / P / R |", "|---|---|---|---|", ...commentRows, ""] : []),
  ].join("\n"),
);

const meanOf = (values: number[]): number => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
const baselineMean = meanOf(comparisons.map(({ comparison }) => comparison.baselineMean));
const oursMean = meanOf(comparisons.map(({ comparison }) => comparison.oursMean));
if (baseline && comparisons.length > 0) {
  const f = (value: number): string => value.toFixed(4);
  const signed = (value: number): string => `${value >= 0 ? "+" : ""}${f(value)}`;
  console.log(
    [
      `against the baseline ${baseline.label} = ${baseline.sha.slice(0, 12)}: mean per-page F1, paired bootstrap over pages (2,000 resamples, 95 %)`,
      "| corpus | baseline F1 | ours F1 | Δ | 95 % interval | verdict |",
      "|---|---|---|---|---|---|",
      ...comparisons.map(
        ({ corpus, comparison: c }) => `| ${corpus} | ${f(c.baselineMean)} | ${f(c.oursMean)} | ${signed(c.delta)} | [${signed(c.low)}, ${signed(c.high)}] | ${c.verdict} |`,
      ),
      `| mean of ${comparisons.length} corpora | ${f(baselineMean)} | ${f(oursMean)} | ${signed(oursMean - baselineMean)} | | |`,
      "",
    ].join("\n"),
  );
}

// In a process of its own, so that its peak resident memory is the extraction's and nothing else's.
const memory = JSON.parse(
  execFileSync(process.execPath, [join(import.meta.dirname, "extract-memory.ts")], { encoding: "utf8" }).trim(),
) as Record<string, number>;
console.log(`memory (10 MB page): ${JSON.stringify(memory)}`);
const baselineReport = baseline && { rev: baseline.label, sha: baseline.sha, meanF1: { baseline: baselineMean, ours: oursMean } };
console.log(JSON.stringify({ rounds, corpora: report, ...(baselineReport && { baseline: baselineReport }), memory }));
