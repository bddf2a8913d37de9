import type { Element, ParentNode } from "domhandler";
import { contains, isElement } from "../dom.ts";
import type { Rendering } from "./content-selection.ts";
import type { TitleWords } from "../repeats-title.ts";
import { replaceMarkdownLinks } from "../markdown-links.ts";
import { headlineText, type PageText, textBlocks, textChars, textRegion } from "./text-blocks.ts";

/** Whether the second, independent method ran on a page, and whether its result was the one shown. */
export type FallbackUse = "not-run" | "kept-main" | "chosen";

/**
 * The main result is checked against the page's text as the second method reads it: a result shorter than this
 * share of the page's text blocks is tiny beside the page's prose.
 */
const MIN_SHOWN_SHARE = 0.15;
/** A result with more than this share of link text is mostly links. */
const MAX_LINK_SHARE = 0.5;
/** The second method's result replaces a tiny or linky main result when it is this much longer... */
const MIN_GAIN = 2;
/** ...and the stretch after the headline is preferred over a longer one elsewhere down to this share of it. */
const MIN_ANCHORED_SHARE = 0.25;
/**
 * The main result has the headline's text when it shows half of the first text blocks after the headline; a single
 * block there is a standfirst, not the article.
 */
const HEADLINE_TEXT_BLOCKS = 5;
const MIN_HEADLINE_TEXT_BLOCKS = 2;
/** A single block there longer than a standfirst is (a one-paragraph post) is the article's text. */
const MIN_SINGLE_BLOCK_CHARS = 400;
/** A stretch with this share of the page's text is the page's article. */
const MIN_ARTICLE_SHARE = 0.5;
const MIN_ARTICLE_OF_PAGE = 0.25;
/** The headline's text replaces a main result elsewhere when it has at least this share of that result's length. */
const MIN_ANCHORED_GAIN = 0.5;

function countChars(text: string): number {
  let chars = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 32) chars++;
  return chars;
}

/** Visible characters of Markdown and, of those, link text: images and link targets are not shown as text. */
export function shownText(markdown: string): { chars: number; linkChars: number } {
  let linkChars = 0;
  const text = replaceMarkdownLinks(replaceMarkdownLinks(markdown, "image", () => ""), "link", (label) => {
    linkChars += countChars(label);
    return label;
  });
  return { chars: countChars(text), linkChars };
}

/** Whether element is shown by rendering: under one of its nodes and under nothing it skips. */
function shows({ nodes, skip }: Rendering, element: Element): boolean {
  let node: ParentNode | null = element;
  for (; node; node = node.parent) {
    if (skip.has(node as Element)) return false;
    if ((nodes as readonly ParentNode[]).includes(node)) return true;
  }
  return false;
}

export interface Checked {
  markdown: string;
  use: FallbackUse;
}

/**
 * Checks the main method's Markdown against the page: when it is empty, tiny beside the page's text, mostly
 * links, or leaves out the text that follows the headline, the second method reads the page, and its result is
 * shown when the measures say it is better: longer and less linked, or the headline's own text where the main
 * result was elsewhere.
 */
export function failSafe(
  body: ParentNode,
  headline: Element | undefined,
  titles: readonly TitleWords[],
  main: { markdown: string; rendering?: Rendering; post?: boolean; visibleChars: number; comments?: ReadonlySet<Element> },
  render: (rendering: Rendering) => string,
): Checked {
  const kept: Checked = { markdown: main.markdown, use: "not-run" };
  const shown = shownText(main.markdown);
  const linky = shown.linkChars > shown.chars * MAX_LINK_SHARE;
  // A main result that holds the headline and is not tiny beside all the page's visible text (which bounds its text
  // blocks) is the article: the page is not read a second time (most pages with a headline).
  const { rendering } = main;
  const holdsHeadline = headline !== undefined && rendering !== undefined && rendering.nodes.some((node) => isElement(node) && contains(node, headline));
  if (!linky && holdsHeadline && shown.chars >= main.visibleChars * MIN_SHOWN_SHARE) return kept;
  // The page's one post named as one is its text however short beside the page's boxes.
  if (!linky && main.post && shown.chars > 0) return kept;
  // Reader comments are no more the article for this method than for the main one: a long thread is the longest stretch.
  const page: PageText = textBlocks(body, headline, titles, main.comments);
  const pageChars = textChars(page.blocks);
  if (pageChars === 0) return kept;
  const tiny = shown.chars < pageChars * MIN_SHOWN_SHARE;
  const afterHeadline = rendering ? headlineText(page).slice(0, HEADLINE_TEXT_BLOCKS) : [];
  // Text right after the headline that the main result mostly leaves out (a comment thread or a caption was taken).
  const shownAfterHeadline = afterHeadline.filter((block) => rendering && shows(rendering, block.element)).length;
  const enough = afterHeadline.length >= MIN_HEADLINE_TEXT_BLOCKS || (afterHeadline[0]?.chars ?? 0) >= MIN_SINGLE_BLOCK_CHARS;
  const missesHeadlineText = enough && shownAfterHeadline < afterHeadline.length / 2;
  if (!tiny && !linky && !missesHeadlineText) return kept;
  // In place of the whole page, the text right after a headline that repeats the title is the post, however short
  // beside the page's boxes (a picture and a line under its title).
  const wholePost = rendering === undefined && headline !== undefined;
  const region = textRegion(page, wholePost ? 0 : MIN_ANCHORED_SHARE);
  if (!region) return { ...kept, use: "kept-main" };
  const markdown = render({ nodes: region.nodes, skip: region.skip });
  const other = shownText(markdown);
  const readable = other.linkChars <= other.chars * MAX_LINK_SHARE;
  const longer = other.chars >= Math.max(1, shown.chars) * MIN_GAIN && readable;
  // In place of the whole page (no main block stood out), a stretch holding most of the page's text, and a fair part of
  // all it shows, is its article (not a cookie notice on a page of links).
  const article = rendering === undefined && readable && region.chars >= pageChars * MIN_ARTICLE_SHARE && region.chars >= shown.chars * MIN_ARTICLE_OF_PAGE;
  const headlineFound = missesHeadlineText && region.anchored && other.chars >= shown.chars * MIN_ANCHORED_GAIN;
  const post = wholePost && region.anchored && readable;
  return longer || headlineFound || article || post ? { markdown, use: "chosen" } : { ...kept, use: "kept-main" };
}
