import type { ChildNode, Element, ParentNode } from "domhandler";
import { boilerplateWithin } from "./html-boilerplate.ts";
import { measureBlocks, type PageBlocks } from "./html-block-stats.ts";
import { findMainContent } from "./html-main-content.ts";

/** Nodes to render, and the elements inside them to leave out. */
export interface Rendering {
  nodes: readonly ChildNode[];
  skip: ReadonlySet<Element>;
}

/** The main content when a block clearly is, and the whole readable page (the fallback, and for when main renders empty). */
export interface ContentSelection {
  main?: Rendering;
  page: Rendering;
  /** Whether the page has a paragraph at all: without one there was no main block to look for. */
  hasProse: boolean;
}

/** A main block holding less than this share of the page's prose is not clearly the main block. */
const MIN_PROSE_SHARE = 0.4;

/** An element named like furniture but holding more than this share of the page's text is a layout wrapper (penci_sidebar, menu-open). */
const WRAPPER_SHARE = 0.5;
/** Wrappers nest; each level found costs one more walk. */
const MAX_WRAPPER_LEVELS = 4;

/** Measures the page, trusting elements that furniture-like names would drop but that hold most of the page's text. */
function measurePage(body: ParentNode): PageBlocks {
  const trusted = new Set<Element>();
  let blocks = measureBlocks(body, trusted);
  for (let level = 0; level < MAX_WRAPPER_LEVELS; level++) {
    let total = blocks.root.chars;
    for (const chars of blocks.droppedByName.values()) total += chars;
    const wrappers = [...blocks.droppedByName].filter(([, chars]) => chars > total * WRAPPER_SHARE);
    if (wrappers.length === 0) break;
    for (const [element] of wrappers) trusted.add(element);
    blocks = measureBlocks(body, trusted);
  }
  return blocks;
}

/**
 * The block the page marks as its main content: the first visible <main> or [role=main], else its only
 * <article> (several are a listing). Used when scoring finds no clear main block (pages with little prose).
 */
function markedMain(blocks: PageBlocks): Element | undefined {
  const articles: Element[] = [];
  for (const element of blocks.stats.keys()) {
    if (element.name === "main" || element.attribs.role === "main") return element;
    if (element.name === "article") articles.push(element);
  }
  return articles.length === 1 ? articles[0] : undefined;
}

/**
 * Finds the main content under body: the scored block when it holds a fair share of the page's prose,
 * else the block the page marks as main. Without either, only the whole readable page is offered.
 */
export function selectContent(body: ParentNode, titles: readonly string[]): ContentSelection {
  const blocks = measurePage(body);
  const page = { nodes: body.children, skip: blocks.dropped };
  const hasProse = blocks.root.paragraphs > 0;
  const scored = findMainContent(blocks);
  const marked = markedMain(blocks);
  const nodes = scored && scored.prose >= blocks.root.prose * MIN_PROSE_SHARE ? [scored.element] : marked && [marked];
  if (!nodes) return { page, hasProse };
  const skip = boilerplateWithin(nodes, blocks, titles);
  for (const element of blocks.dropped) skip.add(element);
  return { main: { nodes, skip }, page, hasProse };
}
