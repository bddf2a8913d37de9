/** A headline repeats a title when this share of its words are the title's. */
const HEADLINE_WORDS_IN_TITLE = 0.6;
/** A line reads as the title when it repeats it and has this share of the title's words (not the site's name alone). */
const MIN_TITLE_WORDS_SHARE = 0.5;

/** The words of a text, lower-cased: runs of letters and digits in any script. */
export const wordsOf = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** A declared title's words, read once per page. */
export interface TitleWords {
  words: Set<string>;
  count: number;
}

export function titleWordsOf(titles: readonly string[]): TitleWords[] {
  return titles.map((title) => {
    const words = wordsOf(title);
    return { words: new Set(words), count: words.length };
  });
}

/** Whether most of the line's words are one title's, and at least minTitleShare of that title's words are in it. */
function matchesTitle(line: string, titles: readonly TitleWords[], minTitleShare: number): boolean {
  const words = wordsOf(line);
  if (words.length === 0) return false;
  return titles.some((title) => {
    const inTitle = words.filter((word) => title.words.has(word));
    return inTitle.length >= words.length * HEADLINE_WORDS_IN_TITLE && (minTitleShare === 0 || new Set(inTitle).size >= title.count * minTitleShare);
  });
}

/** Whether a heading's text repeats one of the page's declared titles: most of its words are that title's (a site's name alone does). */
export const repeatsTitle = (heading: string, titles: readonly TitleWords[]): boolean => matchesTitle(heading, titles, 0);

/** Whether a line reads as a title: it repeats it and has a fair share of the title's words (not the site's name alone). */
export const readsAsTitle = (line: string, titles: readonly TitleWords[]): boolean => matchesTitle(line, titles, MIN_TITLE_WORDS_SHARE);
