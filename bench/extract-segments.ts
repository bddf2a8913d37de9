/**
 * Segment scoring as the trafilatura evaluation does it (a port of shared/tools/extract-segments.mjs):
 * a "with" segment found in the output is a true positive, one missing a false negative, a "without"
 * segment found a false positive; counts are summed over pages. Matching ignores Markdown syntax, link
 * targets, backslash escapes, case and runs of whitespace.
 */

export interface PageSegments {
  url?: string;
  with: readonly string[];
  without: readonly string[];
}

export interface SegmentScore {
  pages: number;
  f1: number;
  precision: number;
  recall: number;
  tp: number;
  fp: number;
  fn: number;
  /** Pages without a prediction; they count as empty predictions. */
  missing: number;
}

export function normaliseSegmentText(text: string): string {
  return text
    .normalize("NFKC")
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, " $1 ")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\\([\\`*_{}[\]()#+\-.!<>|~])/g, "$1")
    .replace(/[*_`#>|~]+/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();
}

const round = (value: number): number => +value.toFixed(4);

export function scoreSegments(
  segments: Readonly<Record<string, PageSegments>>,
  predicted: Readonly<Record<string, { articleBody: string } | undefined>>,
): SegmentScore {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let missing = 0;
  for (const [id, page] of Object.entries(segments)) {
    const prediction = predicted[id];
    if (!prediction) missing++;
    const text = normaliseSegmentText(prediction?.articleBody ?? "");
    for (const segment of page.with) {
      if (text.includes(normaliseSegmentText(segment))) tp++;
      else fn++;
    }
    for (const segment of page.without) {
      if (text.includes(normaliseSegmentText(segment))) fp++;
    }
  }
  const precision = tp / Math.max(1, tp + fp);
  const recall = tp / Math.max(1, tp + fn);
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { pages: Object.keys(segments).length, f1: round(f1), precision: round(precision), recall: round(recall), tp, fp, fn, missing };
}
