/**
 * Article-body scoring as the public article-extraction benchmark does it (a port of
 * shared/tools/extract-f1.mjs): F1 over 4-word shingles, each page's TP/FP/FN normalised so long
 * pages weigh no more than short ones, mean precision and recall over pages, F1 from those means.
 */

export type ArticleBodies = Readonly<Record<string, { articleBody: string } | undefined>>;

export interface PageScore {
  id: string;
  precision: number;
  recall: number;
}

export interface CorpusScore {
  pages: number;
  f1: number;
  precision: number;
  recall: number;
  /** Pages of the ground truth without a prediction; they count as empty predictions. */
  missing: number;
  perPage: PageScore[];
}

type Counts = readonly [tp: number, fp: number, fn: number];

const tokens = (text: string): string[] => text.match(/[\p{L}\p{N}_]+/gu) ?? [];

function shingles(text: string, n = 4): Map<string, number> {
  const words = tokens(text);
  const counts = new Map<string, number>();
  for (let i = 0; i < Math.max(1, words.length - n + 1); i++) {
    const key = words.slice(i, i + n).join("\u0001");
    if (key) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

function match(trueText: string, predictedText: string): Counts {
  const a = shingles(trueText);
  const b = shingles(predictedText);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const key of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(key) ?? 0;
    const y = b.get(key) ?? 0;
    tp += Math.min(x, y);
    fp += Math.max(0, y - x);
    fn += Math.max(0, x - y);
  }
  const sum = tp + fp + fn;
  return sum > 0 ? [tp / sum, fp / sum, fn / sum] : [0, 0, 0];
}

const precisionOf = ([tp, fp, fn]: Counts): number => (fp === 0 && fn === 0 ? 1 : tp === 0 && fp === 0 ? 0 : tp / (tp + fp));
const recallOf = ([tp, fp, fn]: Counts): number => (fp === 0 && fn === 0 ? 1 : tp === 0 && fn === 0 ? 0 : tp / (tp + fn));
const mean = (values: number[]): number => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
const round = (value: number): number => +value.toFixed(4);

/** Scores predictions against the ground truth's pages (sorted by id, as the benchmark's tool lists them). */
export function scoreCorpus(truth: ArticleBodies, predicted: ArticleBodies): CorpusScore {
  let missing = 0;
  const rows = Object.keys(truth)
    .sort()
    .map((id) => {
      const prediction = predicted[id];
      if (!prediction) missing++;
      return { id, counts: match(truth[id]?.articleBody ?? "", prediction?.articleBody ?? "") };
    });
  // As in the tool: a page with nothing predicted has no precision, one with nothing to find no recall.
  const precision = mean(rows.filter(({ counts: [tp, fp] }) => tp + fp > 0).map(({ counts }) => precisionOf(counts)));
  const recall = mean(rows.filter(({ counts: [tp, , fn] }) => tp + fn > 0).map(({ counts }) => recallOf(counts)));
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return {
    pages: rows.length,
    f1: round(f1),
    precision: round(precision),
    recall: round(recall),
    missing,
    perPage: rows.map(({ id, counts }) => ({ id, precision: round(precisionOf(counts)), recall: round(recallOf(counts)) })),
  };
}
