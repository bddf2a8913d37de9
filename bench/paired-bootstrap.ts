/** Whether one side's per-page scores are above the other's by more than the pages' own spread. */
export type BootstrapVerdict = "up" | "down" | "within noise";

export interface PairedBootstrap {
  baselineMean: number;
  oursMean: number;
  /** Mean of the per-page differences, ours minus baseline. */
  delta: number;
  /** The 2.5 % and 97.5 % quantiles of the resampled mean difference. */
  low: number;
  high: number;
  verdict: BootstrapVerdict;
}

/** A small seeded PRNG (mulberry32): the same seed gives the same resamples, so a run repeats. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const mean = (values: readonly number[]): number => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);

/**
 * A paired bootstrap over pages: the pages are drawn with replacement `resamples` times and the mean of their
 * differences (ours − baseline, page by page) taken each time; the 95 % interval is the middle of those means.
 * "down" only when the whole interval is below zero, "up" only when it is all above.
 */
export function pairedBootstrap(baseline: readonly number[], ours: readonly number[], resamples = 2000, seed = 48): PairedBootstrap {
  if (baseline.length !== ours.length) throw new Error(`paired lists differ in length: ${baseline.length} and ${ours.length}`);
  const differences = ours.map((value, i) => value - (baseline[i] ?? 0));
  const random = mulberry32(seed);
  const means: number[] = [];
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < differences.length; i++) sum += differences[Math.floor(random() * differences.length)] ?? 0;
    means.push(sum / Math.max(1, differences.length));
  }
  means.sort((a, b) => a - b);
  const quantile = (q: number): number => means[Math.round(q * (means.length - 1))] ?? 0;
  const low = quantile(0.025);
  const high = quantile(0.975);
  return {
    baselineMean: mean(baseline),
    oursMean: mean(ours),
    delta: mean(differences),
    low,
    high,
    verdict: low > 0 ? "up" : high < 0 ? "down" : "within noise",
  };
}
