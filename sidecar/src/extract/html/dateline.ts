import type { Element } from "domhandler";
import { findElement, holdsWithin, isElement, shortText } from "../dom.ts";
import { BLOCK_ELEMENTS } from "./block-elements.ts";
import { classHint } from "./class-hints.ts";
import { oneLine } from "../whitespace.ts";

/**
 * Whether a short line of text is a dateline ("Dienstag, 4. Juni 2019", "23.10.2018 | 14:05",
 * "PUBLISHED: November 19, 2019 at 8:59 pm"): a date or time with at most a few words around it
 * ("Updated", "by Ann"). Written with digits and word shapes only, so it needs no month names in any language
 * and reads any script's digits.
 */

/** Longer text is a sentence that mentions a date, not a dateline. */
export const MAX_DATELINE_CHARS = 100;
/** Words besides the date: a label ("Erstellt am", "Published") and a name fit, a sentence does not. */
const MAX_OTHER_WORDS = 4;

/** Letters with their combining marks: month names in scripts that write vowels as marks (Bengali, Hindi). */
const LETTER = String.raw`[\p{L}\p{M}]`;
/** Dates and times, in any script's digits (২০২০ as 2020). */
const DATE_PARTS = new RegExp(
  [
    // 23.10.2018, 11/19/19, 2019-06-04 (not version numbers or phone numbers)
    String.raw`(?<![\p{Nd}.])(?:\p{Nd}{1,2}[./-]\p{Nd}{1,2}[./-](?:\p{Nd}{4}|\p{Nd}{2})|\p{Nd}{4}-\p{Nd}{2}-\p{Nd}{2})(?![\p{Nd}.]\p{Nd}|\p{Nd})`,
    // 2024年3月12日, 2024년 3월 12일: East Asian dates, each part followed by its unit
    String.raw`\p{Nd}{4}\s?[年년]\s?\p{Nd}{1,2}\s?[月월]\s?\p{Nd}{1,2}\s?[日일]`,
    // 8:59, 14:05:10, with am/pm
    String.raw`\p{Nd}{1,2}:\p{Nd}{2}(?::\p{Nd}{2})?(?:\s?[ap]\.?m\.?)?`,
    // 4. Juni 2019, 19 November 2019, 6 mai 2014
    String.raw`\p{Nd}{1,2}\.?\s+${LETTER}{3,12}\.?,?\s+\p{Nd}{4}`,
    // November 19, 2019 / Nov. 19th 2019
    String.raw`${LETTER}{3,12}\.?\s+\p{Nd}{1,2}(?:st|nd|rd|th)?\.?,?\s+\p{Nd}{4}`,
  ].join("|"),
  "giu",
);
const WORD = /\p{L}[\p{L}\p{M}]*/gu;

/** Every date or time above has a digit: text without one is answered before the slower pattern runs. */
const DIGIT = /\p{Nd}/u;

/**
 * Whether short text is a date or time with at most `otherWords` words around it, MAX_OTHER_WORDS more with a second
 * date (not a time): a line of when a story was published and when updated ("15. Oktober 2024, 18:03 Uhr Aktualisiert am
 * 16. Oktober 2024, 7:41 Uhr") labels each. Times add none (opening hours are text), nor do more dates (a list of
 * dated entries, one to a line).
 */
export function isDateline(text: string, otherWords = MAX_OTHER_WORDS): boolean {
  if (text.length > MAX_DATELINE_CHARS || !DIGIT.test(text)) return false;
  let dates = 0;
  let found = false;
  const rest = text.replace(DATE_PARTS, (part) => {
    found = true;
    if (!part.includes(":")) dates++;
    return " ";
  });
  if (!found) return false;
  return (rest.match(WORD) ?? []).length <= otherWords + (dates === 2 ? MAX_OTHER_WORDS : 0);
}

/** Blocks that can be a dateline: lines of text, not structures (a list, a table, a quote, a heading hold dates as values). */
export const DATELINE_BLOCKS = new Set(["p", "div", "section", "header", "footer", "address", "center"]);

/** An ISO 8601 timestamp, as a relative date's title gives it ("4 hours ago" titled 2024-05-01T10:00:00). */
const ISO_TIMESTAMP = /^\s*\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/;

/** An element that marks up a moment: `<time>`, GitHub's `<relative-time>`, anything with a datetime or an ISO title. */
const marksMoment = (element: Element): boolean =>
  element.name === "time" || element.attribs.datetime !== undefined || ISO_TIMESTAMP.test(element.attribs.title ?? "");

/** A dateline block's text: the short text of a block that can be a line, else undefined. */
const blockLine = (element: Element): string | undefined => (DATELINE_BLOCKS.has(element.name) ? shortText(element, MAX_DATELINE_CHARS) : undefined);

/**
 * A metadata line says who did what when in more words than a dateline: "alice opened this issue on Jan 2, 2024 · 2
 * comments". Ten words besides the date, still under a dateline's length: a sentence that mentions a date is longer.
 */
const MAX_METADATA_WORDS = 10;

/** Whether short text dates something in a metadata line's few words. */
const datesInFewWords = (text: string | undefined): boolean => text !== undefined && isDateline(oneLine(text), MAX_METADATA_WORDS);

/**
 * Whether an element is a block whose text is a page's metadata: a dateline ("Posted on 4 June 2019", "Published:
 * Tuesday, 4 June 2019") or a line dating an issue or a post in a few more words.
 */
export const isMetadataLine = (element: Element): boolean => datesInFewWords(blockLine(element));

/** Blocks a card of an author's figures is set in: a dateline's, or a list of terms and values (phpBB's). */
const CARD_BLOCKS = new Set([...DATELINE_BLOCKS, "dl"]);

/** How many of an element's children are lines: blocks that show text. */
function linesIn(element: Element): number {
  let lines = 0;
  for (const child of element.children) if (isElement(child) && BLOCK_ELEMENTS.has(child.name) && shortText(child, MAX_DATELINE_CHARS) !== "") lines++;
  return lines;
}

/**
 * Whether an element is a card of a thread entry's author: a dateline's length in several lines, dated in a metadata
 * line's few words (phpBB's "rivet_joe" over "Member", "Posts: 120", "Joined: Mon Jan 08, 2018 3:12 pm").
 */
export function isAuthorCard(element: Element): boolean {
  return CARD_BLOCKS.has(element.name) && linesIn(element) >= 2 && datesInFewWords(shortText(element, MAX_DATELINE_CHARS));
}

/**
 * Whether an element is one line that attributes a thread's entry: a dateline ("alice commented Jan 2, 2024", "Sep 27,
 * 2018 #1"), or a short line holding a marked-up moment, which a relative date is written as ("erin 4 hours ago |
 * parent"); not a card of lines (a user's name over "Joined Mar 3, 2014", "Messages 2,206").
 */
export function isAttributionLine(element: Element): boolean {
  const text = blockLine(element);
  if (text === undefined || !(isDateline(oneLine(text)) || findElement(element, marksMoment) !== undefined)) return false;
  return linesIn(element) <= 1;
}

/** How far down a poster's name is looked for: vBulletin's `<div class="username_container"><a class="username"><strong>`. */
const MAX_NAME_LEVELS = 2;

/**
 * Whether an element is one line that is its thread entry's poster's name: all its text in links, named as a user
 * name, on it or at most MAX_NAME_LEVELS down. Any other line of links in an entry is its buttons (quote, reply).
 */
export function isPosterName(element: Element, chars: number, linkChars: number): boolean {
  return chars > 0 && linkChars === chars && linesIn(element) <= 1 && (classHint(element).userName || holdsWithin(element, MAX_NAME_LEVELS, (inner) => classHint(inner).userName));
}
