/** p50 and p95 of a list of milliseconds. */
export function percentiles(samples: number[]): { p50: number; p95: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return { p50: +at(0.5).toFixed(2), p95: +at(0.95).toFixed(2) };
}

/** Runs `task` `count` times in sequence and answers each run's milliseconds. */
export async function timeEach(count: number, task: (i: number) => Promise<void>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await task(i);
    samples.push(performance.now() - start);
  }
  return samples;
}
