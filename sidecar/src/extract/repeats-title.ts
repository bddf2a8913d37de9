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
