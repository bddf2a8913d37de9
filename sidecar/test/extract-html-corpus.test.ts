import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CORPORA_DIR, loadCorpus } from "../../bench/extract-corpus.ts";
import { scoreOutputs } from "../../bench/extract-score.ts";
import { htmlHandler } from "../src/extract/html-handler.ts";

/** Regression gates: main-content F1 over all pages of each development corpus, a little under what is reached. */
const GATES = [
  { corpus: "extraction-dev", kind: "articles", pages: 50, minF1: 0.97 },
  { corpus: "extraction-segments-dev", kind: "segments", pages: 530, minF1: 0.94 },
  // Served as UTF-8 (loadCorpus knows): the pages were re-encoded and kept their old <meta charset>.
  { corpus: "extraction-wceb-dev", kind: "articles", pages: 274, minF1: 0.935 },
  // Reader comments are not main content here (the ground truth leaves them out).
  { corpus: "extraction-dragnet-dev", kind: "articles", pages: 879, minF1: 0.9 },
] as const;

describe("main-content extraction on the development corpora", () => {
  for (const gate of GATES) {
    it(`${gate.corpus}: F1 stays at or above ${gate.minF1}`, () => {
      const dir = join(CORPORA_DIR, gate.corpus);
      const { pages, truth } = loadCorpus(dir);
      if (truth?.kind !== gate.kind) throw new Error(`${dir} has no ${gate.kind === "articles" ? "ground-truth" : "segments"}.json`);
      const outputs = Object.fromEntries(
        pages.map((page) => [page.id, { articleBody: htmlHandler.extract({ text: page.html, url: page.url, mime: "text/html" }).content }]),
      );
      expect(pages.length).toBe(gate.pages);
      expect(scoreOutputs(truth, outputs, true).f1).toBeGreaterThanOrEqual(gate.minF1);
      // 74 MB of segment pages take about 10 s alone, three times that on a machine shared with other runs.
    }, 120_000);
  }
});
