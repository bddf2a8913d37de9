import { routes, startOrigin } from "../test-support/origin.ts";
import { PASSAGE_PAGES } from "../test-support/passage-pages.ts";
import { passagePageRoutes } from "../test-support/passage-routes.ts";
import type { BenchStack } from "./bench-stack.ts";

interface Passage {
  text: string;
  offset: number;
  end: number;
}

/** The content's first `count` paragraphs (blocks between blank lines, headings left out): what a reader without a query gets first. */
const firstParagraphs = (content: string, count: number) => content.split(/\n\n+/).filter((block) => !/^#{1,6} /.test(block)).slice(0, count);

/**
 * Passage quality on the labelled set (test-support/passage-pages.ts: pages of several kinds,
 * questions whose answering paragraph is known), every question asked through the stack's
 * fetch_content with `query`: how often a top-3 passage holds the answer (and the first passage),
 * against the page's first 3 paragraphs and its first characters up to what the 3 passages hold
 * in all, in the same run.
 */
export async function benchPassages(bench: BenchStack) {
  const origin = await startOrigin("127.0.0.2", routes(passagePageRoutes()));
  try {
    const sessionId = await bench.newSession();
    let questions = 0;
    let top3 = 0;
    let top1 = 0;
    let firstThree = 0;
    let sameBudget = 0;
    let passageChars = 0;
    let passageCount = 0;
    for (const page of PASSAGE_PAGES) {
      for (const { question, answer } of page.questions) {
        const res = await bench.post(`/api/sessions/${sessionId}/tools/fetch_content`, { url: `${origin.url}${page.path}`, query: question });
        if (res.status !== 200) throw new Error(`fetch_content answered ${res.status}: ${await res.text()}`);
        const { content, passages } = ((await res.json()) as { results: Array<{ content: string; passages: Passage[] }> }).results[0]!;
        const budget = passages.reduce((sum, passage) => sum + passage.text.length, 0);
        questions++;
        if (passages.some((passage) => passage.text.includes(answer))) top3++;
        if (passages[0]?.text.includes(answer)) top1++;
        if (firstParagraphs(content, 3).some((block) => block.includes(answer))) firstThree++;
        const at = content.indexOf(answer);
        if (at !== -1 && at + answer.length <= budget) sameBudget++;
        passageChars += budget;
        passageCount += passages.length;
      }
    }
    const rate = (hits: number) => +(hits / questions).toFixed(3);
    return {
      case: "passages: the answering paragraph in fetch_content's top 3 passages against the first paragraphs (labelled set, npm start)",
      pages: PASSAGE_PAGES.length,
      kinds: PASSAGE_PAGES.map((page) => page.kind),
      questions,
      top3: rate(top3),
      top1: rate(top1),
      firstThreeParagraphs: rate(firstThree),
      firstCharsOfTheSameLength: rate(sameBudget),
      meanPassagesPerQuestion: +(passageCount / questions).toFixed(2),
      meanCharsOfTheTop3: Math.round(passageChars / questions),
    };
  } finally {
    await origin.close();
  }
}
