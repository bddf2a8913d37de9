import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { expect, it } from "vitest";
import { loadCorpus } from "../../bench/extract-corpus.ts";
import { scoreCorpus } from "../../bench/extract-f1.ts";
import { markdownPlainText } from "../../bench/markdown-plain-text.ts";
import { htmlHandler } from "../src/extract/html-handler.ts";

/**
 * The 50-page development corpus lives in shared/, beside the repository: beside this checkout, or
 * (in a local clone) beside the repository it was cloned from. Missing, the test fails loudly.
 */
function corpusDir(): string {
  const beside = (repo: string) => join(repo, "..", "shared", "corpus", "extraction-dev");
  const root = join(import.meta.dirname, "..", "..");
  const origin = spawnSync("git", ["-C", root, "remote", "get-url", "origin"], { encoding: "utf8" }).stdout?.trim() ?? "";
  const candidates = [beside(root), ...(isAbsolute(origin) ? [beside(origin)] : [])];
  return candidates.find((dir) => existsSync(dir)) ?? candidates[0]!;
}

/** Regression gate: main-content F1 on the development corpus. */
const CORPUS = corpusDir();
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
