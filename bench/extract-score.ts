import type { CorpusTruth } from "./extract-corpus.ts";
import { scoreCorpus } from "./extract-f1.ts";
import { isHeldOut } from "./extract-holdout.ts";
import { scoreSegments } from "./extract-segments.ts";
import { markdownPlainText } from "./markdown-plain-text.ts";

/** F1, precision and recall of one extractor's outputs, over the whole corpus and over its two parts. */
export interface Scores {
  f1: number;
  precision: number;
  recall: number;
  /** The pages development looks at, and the third kept aside (extract-holdout.ts). */
  dev: { f1: number; precision: number; recall: number };
  heldOut: { f1: number; precision: number; recall: number };
  /** Where the ground truth notes reader comments (not main content there): the pages with them, and those without. */
  withComments?: { f1: number; precision: number; recall: number };
  withoutComments?: { f1: number; precision: number; recall: number };
}

export type Outputs = Readonly<Record<string, { articleBody: string }>>;

/** Scores the pages `keep` selects; article bodies are scored as text, converted once for every part. */
function scorePart(truth: CorpusTruth, outputs: Outputs, markdown: boolean): (keep: (id: string) => boolean) => { f1: number; precision: number; recall: number } {
  const texts =
    truth.kind === "articles" && markdown
      ? Object.fromEntries(Object.entries(outputs).map(([id, { articleBody }]) => [id, { articleBody: markdownPlainText(articleBody) }]))
      : outputs;
  return (keep) => {
    const { f1, precision, recall } = truth.kind === "segments" ? scoreSegments(pick(truth.segments, keep), outputs) : scoreCorpus(pick(truth.bodies, keep), texts);
    return { f1, precision, recall };
  };
}

function pick<T>(record: Readonly<Record<string, T>>, keep: (id: string) => boolean): Record<string, T> {
  return Object.fromEntries(Object.entries(record).filter(([id]) => keep(id)));
}

/**
 * Scores outputs the way each benchmark's tool does. Article bodies are compared as words, so Markdown is
 * first read as plain text (link targets and images out); segments are matched in the Markdown itself,
 * which the segment tool reads with the syntax ignored.
 */
export function scoreOutputs(truth: CorpusTruth, outputs: Outputs, markdown: boolean): Scores {
  const part = scorePart(truth, outputs, markdown);
  const scores: Scores = { ...part(() => true), dev: part((id) => !isHeldOut(id)), heldOut: part(isHeldOut) };
  if (truth.kind === "articles" && Object.values(truth.bodies).some((body) => body.comments !== undefined)) {
    const commented = (id: string): boolean => truth.bodies[id]?.comments !== undefined;
    scores.withComments = part(commented);
    scores.withoutComments = part((id) => !commented(id));
  }
  return scores;
}

/** Each page's F1 on its own, scored as its corpus is, in the order of `ids`: what a paired comparison of two extractors resamples. */
export function pageF1s(truth: CorpusTruth, outputs: Outputs, markdown: boolean, ids: readonly string[]): number[] {
  const part = scorePart(truth, outputs, markdown);
  return ids.map((id) => part((other) => other === id).f1);
}
