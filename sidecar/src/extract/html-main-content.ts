import type { Element } from "domhandler";
import { isElement } from "./dom.ts";
import type { BlockStats, PageBlocks } from "./html-block-stats.ts";

/** The page's main block. */
export interface MainContent {
  element: Element;
  /** Prose characters in it. */
  prose: number;
}

/** What a container's tag says before its text is read (Readability's weights). */
const TAG_WEIGHT: Readonly<Record<string, number>> = {
  div: 5, article: 10, main: 10, section: 2, pre: 3, td: 3, blockquote: 3,
  address: -3, ol: -3, ul: -3, dl: -3, dd: -3, dt: -3, li: -3, form: -3,
  h1: -5, h2: -5, h3: -5, h4: -5, h5: -5, h6: -5, th: -5,
};
/**
 * Widening to a parent is worth it when what the parent adds is mostly prose and a real part of the article
 * (the rest of a body split by an ad slot or into sections), not a teaser's summary line; or when it adds
 * almost nothing (a wrapper).
 */
const MIN_ADDED_PROSE_SHARE = 0.5;
const MIN_ADDED_PROSE_GROWTH = 0.25;
const NEGLIGIBLE_ADDED_SHARE = 0.05;

const linkDensity = (stats: BlockStats): number => (stats.chars > 0 ? stats.linkChars / stats.chars : 0);

function candidateScore(element: Element, stats: BlockStats): number {
  return (stats.score + (TAG_WEIGHT[element.name] ?? 0) + stats.hint.weight) * (1 - linkDensity(stats));
}

/**
 * The best-scoring container, widened to the ancestors that add mostly prose; undefined when no paragraph scored.
 * Scoring finds where paragraphs concentrate (Readability's measure); widening recovers an article whose
 * paragraphs sit in several sibling blocks, and stops before the page's menus, teasers and footers.
 */
export function findMainContent(blocks: PageBlocks): MainContent | undefined {
  const { stats } = blocks;
  let top: Element | undefined;
  let topScore = 0;
  for (const [element, entry] of stats) {
    if (entry.score <= 0) continue;
    const score = candidateScore(element, entry);
    if (!top || score > topScore) {
      top = element;
      topScore = score;
    }
  }
  if (!top) return undefined;
  let current = stats.get(top) as BlockStats;
  for (let parent = top.parent; parent && isElement(parent); parent = parent.parent) {
    const parentStats = stats.get(parent);
    if (!parentStats) break;
    const addedChars = parentStats.chars - current.chars;
    const addedProse = parentStats.prose - current.prose;
    const negligible = addedChars <= current.chars * NEGLIGIBLE_ADDED_SHARE;
    if (!negligible && (addedProse < addedChars * MIN_ADDED_PROSE_SHARE || addedProse < current.prose * MIN_ADDED_PROSE_GROWTH)) break;
    top = parent;
    current = parentStats;
  }
  return { element: top, prose: current.prose };
}
