/** A headline repeats a title when this share of its words are the title's. */
export const HEADLINE_WORDS_IN_TITLE = 0.6;

/** The words of a text, lower-cased: runs of letters and digits in any script. */
export const wordsOf = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** Whether a heading's text repeats one of the page's declared titles: most of its words are that title's. */
export function repeatsTitle(heading: string, titles: readonly string[]): boolean {
  const words = wordsOf(heading);
  if (words.length === 0) return false;
  return titles.some((title) => {
    const known = new Set(wordsOf(title));
    return words.filter((word) => known.has(word)).length >= words.length * HEADLINE_WORDS_IN_TITLE;
  });
}

/** A line reads as the title when it repeats it and has this share of the title's words (not the site's name alone). */
const MIN_TITLE_WORDS_SHARE = 0.5;

/** The words of each declared title, read once per page. */
export function titleWordsOf(titles: readonly string[]): { words: Set<string>; count: number }[] {
  return titles.map((title) => {
    const words = wordsOf(title);
    return { words: new Set(words), count: words.length };
  });
}

/** Whether a line reads as a title: most of its words are the title's, and it has a fair share of the title's words. */
export function readsAsTitle(line: string, titles: readonly { words: Set<string>; count: number }[]): boolean {
  const words = wordsOf(line);
  if (words.length === 0) return false;
  return titles.some((title) => {
    const inTitle = words.filter((word) => title.words.has(word));
    return inTitle.length >= words.length * HEADLINE_WORDS_IN_TITLE && new Set(inTitle).size >= title.count * MIN_TITLE_WORDS_SHARE;
  });
}
