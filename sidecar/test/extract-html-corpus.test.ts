import { join } from "node:path";
import { expect, it } from "vitest";
import { loadCorpus } from "../../bench/extract-corpus.ts";
import { scoreCorpus } from "../../bench/extract-f1.ts";
import { markdownPlainText } from "../../bench/markdown-plain-text.ts";
import { htmlHandler } from "../src/extract/html-handler.ts";

/** Regression gate: main-content F1 on the 50-page development corpus (shared/ sits beside the repository). */
const CORPUS = join(import.meta.dirname, "../../../shared/corpus/extraction-dev");
const MIN_F1 = 0.97;

it(`dev-corpus F1 stays at or above ${MIN_F1}`, () => {
  const { pages, truth } = loadCorpus(CORPUS);
  if (!truth) throw new Error(`${CORPUS} has no ground-truth.json`);
  const predictions = Object.fromEntries(
    pages.map((page) => [page.id, { articleBody: markdownPlainText(htmlHandler.extract({ text: page.html, url: page.url, mime: "text/html" }).content) }]),
  );
  const score = scoreCorpus(truth, predictions);
  expect(score.pages).toBe(50);
  expect(score.missing).toBe(0);
  expect(score.f1).toBeGreaterThanOrEqual(MIN_F1);
});
