import type { Passage } from "@edge-web/shared";
import { blockPieces, contentBlocks, type ContentBlock } from "./content-blocks.ts";
import { queryTerms, searchTerms } from "./search-terms.ts";

/** The longest passage; longer paragraphs are cut into pieces of at most this. */
export const MAX_PASSAGE_CHARS = 800;
/** A passage shorter than this takes the paragraphs after it in its section, for context. */
const MIN_PASSAGE_CHARS = 200;

/** BM25's usual constants. */
const K1 = 1.2;
const B = 0.75;
/** A paragraph's headings count as much as its own words (BM25F): a FAQ's question, a doc's section name. */
const HEADING_WEIGHT = 1;
/** How much the whole section's fit adds to each of its paragraphs. */
const SECTION_WEIGHT = 0.5;

/** A paragraph (or a piece of a long one) and its terms. */
interface Unit {
  start: number;
  end: number;
  section: number;
  terms: Map<string, number>;
  length: number;
  /** Its own fit (BM25F: its words and its headings); `score` adds its section's. */
  own: number;
  score: number;
}

interface Section {
  heading?: string;
  /** The terms of its heading and the headings above it. */
  headingTerms: Map<string, number>;
  terms: Map<string, number>;
  length: number;
}

const counts = (terms: string[], into = new Map<string, number>()) => {
  for (const term of terms) into.set(term, (into.get(term) ?? 0) + 1);
  return into;
};

/** Robertson–Spärck Jones idf as BM25 uses it, kept positive. */
const idf = (total: number, containing: number) => Math.log(1 + (total - containing + 0.5) / (containing + 0.5));
const saturate = (tf: number) => (tf * (K1 + 1)) / (tf + K1);

/**
 * The windows of `content` that fit `query` best, best first, at most `max`: the page's paragraphs
 * (long ones in pieces of at most 800 characters, at line or sentence ends) are scored by BM25F
 * — their own words and their headings' — plus half their section's BM25 score among the page's
 * sections; the best paragraph not yet taken seeds a window, which takes neighbours in its section
 * that fit the query too (or follow a short seed) while it stays within 800 characters. Only
 * paragraphs that share a term with the query seed a window, so a page that does not fit answers none.
 */
export function rankPassages(content: string, query: string, max: number): Passage[] {
  const wanted = [...new Set(queryTerms(query))];
  if (wanted.length === 0) return [];
  const { units, sections } = readPage(content);
  if (units.length === 0) return [];
  scoreUnits(units, sections, wanted);

  const taken = new Set<number>();
  const order = units.map((_, i) => i).filter((i) => units[i]!.own > 0).sort((a, b) => units[b]!.score - units[a]!.score || a - b);
  const passages: Passage[] = [];
  for (const seed of order) {
    if (passages.length >= max) break;
    if (taken.has(seed)) continue;
    let first = seed;
    let last = seed;
    taken.add(seed);
    const fits = (i: number) => i >= 0 && i < units.length && !taken.has(i) && units[i]!.section === units[seed]!.section;
    for (;;) {
      const size = units[last]!.end - units[first]!.start;
      const before = fits(first - 1) && units[last]!.end - units[first - 1]!.start <= MAX_PASSAGE_CHARS ? first - 1 : -1;
      const after = fits(last + 1) && units[last + 1]!.end - units[first]!.start <= MAX_PASSAGE_CHARS ? last + 1 : -1;
      // A neighbour that fits the query joins; while the window is short, the paragraph after it (else before) joins as context.
      const matching = [before, after].filter((i) => i !== -1 && units[i]!.own > 0).sort((a, b) => units[b]!.own - units[a]!.own);
      const next = matching[0] ?? (size < MIN_PASSAGE_CHARS ? (after !== -1 ? after : before) : -1);
      if (next === -1) break;
      taken.add(next);
      if (next < first) first = next;
      else last = next;
    }
    const { start } = units[first]!;
    const { end } = units[last]!;
    const { heading } = sections[units[seed]!.section]!;
    passages.push({ text: content.slice(start, end), ...(heading !== undefined && { heading }), offset: start, end, score: Number(units[seed]!.score.toPrecision(4)) });
  }
  return passages;
}

/** The page's paragraphs (in pieces) and sections: a section is what stands under one heading, up to the next. */
function readPage(content: string): { units: Unit[]; sections: Section[] } {
  const units: Unit[] = [];
  const sections: Section[] = [{ headingTerms: new Map(), terms: new Map(), length: 0 }];
  const path: Array<{ level: number; text: string }> = [];
  for (const block of contentBlocks(content)) {
    if (block.heading) {
      while (path.length > 0 && path[path.length - 1]!.level >= block.heading.level) path.pop();
      path.push(block.heading);
      const headingTerms = counts(path.flatMap((heading) => searchTerms(heading.text)));
      sections.push({ heading: block.heading.text, headingTerms, terms: new Map(headingTerms), length: [...headingTerms.values()].reduce((a, b) => a + b, 0) });
      continue;
    }
    const section = sections.length - 1;
    for (const piece of listItems(content, block).flatMap((item) => blockPieces(content, item, MAX_PASSAGE_CHARS))) {
      const terms = searchTerms(content.slice(piece.start, piece.end));
      units.push({ ...piece, section, terms: counts(terms), length: terms.length, own: 0, score: 0 });
      counts(terms, sections[section]!.terms);
      sections[section]!.length += terms.length;
    }
  }
  return { units, sections };
}

const LIST_ITEM = /^([ \t]*)(?:[-*+]|\d{1,9}[.)])[ \t]/;

/** A list's items, each read as a paragraph of its own (its nested items stay with it); any other block whole. */
function listItems(content: string, block: ContentBlock): ContentBlock[] {
  const text = content.slice(block.start, block.end);
  const first = LIST_ITEM.exec(text);
  if (!first) return [block];
  const items: ContentBlock[] = [];
  let at = 0;
  for (const line of text.split("\n")) {
    const marker = LIST_ITEM.exec(line);
    if (marker && marker[1]!.length <= first[1]!.length) {
      if (items.length > 0) items[items.length - 1]!.end = block.start + at - 1;
      items.push({ start: block.start + at, end: block.end });
    }
    at += line.length + 1;
  }
  return items;
}

function scoreUnits(units: Unit[], sections: Section[], wanted: string[]): void {
  const average = (lengths: number[]) => Math.max(1, lengths.reduce((a, b) => a + b, 0) / lengths.length);
  const unitLength = average(units.map((unit) => unit.length));
  const sectionLength = average(sections.map((section) => section.length));
  const sectionScores = sections.map(() => 0);
  const unitScores = units.map(() => 0);
  for (const term of wanted) {
    const inUnits = units.filter((unit) => unit.terms.has(term) || sections[unit.section]!.headingTerms.has(term)).length;
    const inSections = sections.filter((section) => section.terms.has(term)).length;
    if (inUnits === 0) continue;
    const unitIdf = idf(units.length, inUnits);
    const sectionIdf = idf(sections.length, inSections);
    units.forEach((unit, i) => {
      const tf = (unit.terms.get(term) ?? 0) / (1 - B + (B * unit.length) / unitLength) + HEADING_WEIGHT * (sections[unit.section]!.headingTerms.get(term) ?? 0);
      if (tf > 0) unitScores[i]! += unitIdf * saturate(tf);
    });
    sections.forEach((section, i) => {
      const tf = (section.terms.get(term) ?? 0) / (1 - B + (B * section.length) / sectionLength);
      if (tf > 0) sectionScores[i]! += sectionIdf * saturate(tf);
    });
  }
  units.forEach((unit, i) => {
    unit.own = unitScores[i]!;
    unit.score = unit.own + SECTION_WEIGHT * sectionScores[unit.section]!;
  });
}
