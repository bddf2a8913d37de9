import { extractHtmlPage, type FallbackUse } from "../sidecar/src/extract/html-handler.ts";
import type { CorpusPage } from "./extract-corpus.ts";
import { defuddleMarkdown, readabilityMarkdown, readabilityText } from "./extract-peer.ts";

/** One extractor bench:extract compares: ours, or a peer stack on linkedom. */
export interface Extractor {
  name: string;
  /** Whether the output is Markdown (read as text for article-body scoring) or already text. */
  markdown: boolean;
  /** The page's output, and for ours how its second method was used. */
  run: (page: CorpusPage) => Output | Promise<Output>;
}

export interface Output {
  text: string;
  fallback?: FallbackUse;
}

export const OURS: Extractor = {
  name: "ours",
  markdown: true,
  run: (page) => {
    const { result, fallback } = extractHtmlPage({ text: page.html, url: page.url, mime: "text/html" });
    return { text: result.content, fallback };
  },
};

export const PEERS: readonly Extractor[] = [
  { name: "readability", markdown: false, run: (page) => ({ text: readabilityText(page.html).text }) },
  { name: "readability+turndown", markdown: true, run: (page) => ({ text: readabilityMarkdown(page.html) }) },
  { name: "defuddle", markdown: true, run: async (page) => ({ text: await defuddleMarkdown(page.html, page.url) }) },
];

export function extractorNamed(name: string): Extractor | undefined {
  return [OURS, ...PEERS].find((extractor) => extractor.name === name);
}
