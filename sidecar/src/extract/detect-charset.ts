/**
 * The legacy encoding of bytes that declare none and are not UTF-8, guessed from the text itself, as
 * browsers do (Firefox's chardetng, Chrome's CED): every candidate decodes a sample, and the reading that
 * looks most like writing wins. What "looks like writing" rests on the shape of words, not on any language's
 * words: letters of one script per word, capitals where words start, no control characters or symbols inside
 * words, accented Latin letters among plain ones rather than in runs (a run is another script read wrongly);
 * and, among the Latin encodings, whether one alphabet of the encoding's languages covers the letters seen.
 * For the CJK encodings the share of characters from each standard's common range decides.
 */

/** Enough text to tell the encodings apart; detection never reads more. */
const SAMPLE_BYTES = 64 * 1024;

interface SingleByte {
  encoding: string;
  /** Alphabets of the languages the encoding serves, beyond ASCII; empty for non-Latin scripts. */
  alphabets: readonly string[];
}

/** The web's single-byte legacy encodings, windows-1252 first: it wins ties, as it is the web's default. */
const SINGLE_BYTE: readonly SingleByte[] = [
  {
    encoding: "windows-1252",
    alphabets: [
      "äöüß", // German
      "àâæçéèêëîïôœùûüÿ", // French
      "áéíñóúü", // Spanish
      "áâãàçéêíóôõú", // Portuguese
      "àèéìíîòóù", // Italian
      "éëïóöüáè", // Dutch
      "æøåé", // Danish, Norwegian
      "åäöé", // Swedish, Finnish
      "áðéíóúýþæö", // Icelandic
      "àçèéíïòóúü", // Catalan
    ],
  },
  {
    encoding: "windows-1250",
    alphabets: [
      "ąćęłńóśźż", // Polish
      "áčďéěíňóřšťúůýž", // Czech
      "áäčďéíĺľňóôŕšťúýž", // Slovak
      "áéíóöőúüű", // Hungarian
      "ăâîşţ", // Romanian
      "čćđšž", // Croatian, Slovenian, Bosnian
    ],
  },
  { encoding: "windows-1257", alphabets: ["ąčęėįšųūž", "āčēģīķļņšūž", "äõöüšž"] }, // Lithuanian, Latvian, Estonian
  { encoding: "windows-1254", alphabets: ["çğıöşüâî"] }, // Turkish
  { encoding: "windows-1251", alphabets: [] },
  { encoding: "koi8-r", alphabets: [] },
  { encoding: "windows-1253", alphabets: [] },
  { encoding: "windows-1255", alphabets: [] },
  { encoding: "windows-1256", alphabets: [] },
];

/**
 * Double-byte encodings, with the lead bytes of their most frequent characters: GB2312's level-1 hanzi, Big5's
 * frequent hanzi, KS X 1001's hangul, and kana plus level-1 kanji in Shift_JIS and EUC-JP.
 */
const DOUBLE_BYTE: readonly { encoding: string; common: (lead: number) => boolean; lead: (byte: number) => boolean }[] = [
  { encoding: "gbk", lead: (b) => b >= 0x81 && b <= 0xfe, common: (b) => b >= 0xb0 && b <= 0xd7 },
  { encoding: "big5", lead: (b) => b >= 0x81 && b <= 0xfe, common: (b) => b >= 0xa4 && b <= 0xc6 },
  { encoding: "euc-kr", lead: (b) => b >= 0x81 && b <= 0xfe, common: (b) => b >= 0xb0 && b <= 0xc8 },
  { encoding: "shift_jis", lead: (b) => (b >= 0x81 && b <= 0x9f) || (b >= 0xe0 && b <= 0xfc), common: (b) => (b >= 0x82 && b <= 0x83) || (b >= 0x88 && b <= 0x9f) },
  { encoding: "euc-jp", lead: (b) => b >= 0x8e && b <= 0xfe, common: (b) => b === 0xa4 || b === 0xa5 || (b >= 0xb0 && b <= 0xcf) },
];

/** ISO-2022-JP is 7-bit: its escape sequences give it away. */
const ISO_2022_JP = /\x1b(?:\$[@B]|\(J|\$\(D)/;

/** Han or kana between spaces, this short, reads like a spaced word: Korean taken for Chinese. */
const MAX_SPACED_CJK_WORD = 4;
/** Text of a cased script this long has a capital somewhere: a sentence start or a name. */
const MIN_LETTERS_FOR_CASE = 40;
const LETTER = /[\p{L}\p{M}]/u;
const UPPER = /\p{Lu}/u;
const LOWER = /\p{Ll}/u;
/** Punctuation that stands between words in any script's text. */
const WORD_PUNCTUATION = /[\s\p{P}\p{N}]/u;

/** The scripts told apart, each with its pattern (compiled once); han and kana count as one. */
const SCRIPTS = ["Latin", "Cyrillic", "Greek", "Hebrew", "Arabic", "Han", "Hiragana", "Katakana", "Hangul", "Thai"].map((name) => ({
  name: name === "Hiragana" || name === "Katakana" || name === "Han" ? "CJK" : name,
  pattern: new RegExp(`\\p{Script=${name}}`, "u"),
}));

function script(char: string): string {
  if (char < "\u0080") return "Latin";
  return SCRIPTS.find(({ pattern }) => pattern.test(char))?.name ?? "Other";
}

const scripts = new Map<string, string>();
function scriptOf(char: string): string {
  let known = scripts.get(char);
  if (known === undefined) {
    known = script(char);
    scripts.set(char, known);
  }
  return known;
}

/**
 * How much a decoded sample looks like writing: each word's letters beyond ASCII score when the word is of
 * one script and written in the case patterns of words; control characters, symbols inside words, mixed
 * scripts and runs of accented Latin letters score against. So do more capitals than small letters (prose is
 * mostly small letters, another alphabet read wrongly often is not), Cyrillic or Greek without a single capital
 * (Hebrew or Arabic read wrongly), and han or kana set apart by spaces like words (Chinese and Japanese are
 * written without them; Korean, read wrongly as Chinese, is).
 */
function writingScore(text: string): number {
  let score = 0;
  let upper = 0;
  let lower = 0;
  // Letters of a cased script other than Latin (all beyond ASCII): its text has capitals somewhere.
  let casedCapitals = 0;
  let casedSmall = 0;
  const words = text.split(/[^\p{L}\p{M}\p{S}\p{Co}\u0080-\u009F\uFFFD\u00A4-\u00BF]+/u);
  for (const word of words) {
    if (word === "" || !/[^\x00-\x7f]/.test(word)) continue;
    const chars = [...word];
    const seen = new Set<string>();
    let accentRun = 0;
    let longestAccentRun = 0;
    let extra = 0;
    for (let i = 0; i < chars.length; i++) {
      const char = chars[i] as string;
      const code = char.codePointAt(0) ?? 0;
      if ((code >= 0x80 && code <= 0x9f) || code === 0xfffd || (code >= 0xe000 && code <= 0xf8ff)) {
        score -= 20;
        continue;
      }
      if (!LETTER.test(char)) {
        // A symbol between letters ("k³ótnie") is a letter read in the wrong encoding.
        if (i > 0 && i < chars.length - 1 && !WORD_PUNCTUATION.test(char)) score -= 4;
        accentRun = 0;
        continue;
      }
      const name = scriptOf(char);
      seen.add(name);
      if (code >= 0x80) {
        extra++;
        if (UPPER.test(char)) upper++;
        else if (LOWER.test(char)) lower++;
      }
      accentRun = code >= 0x80 && name === "Latin" ? accentRun + 1 : 0;
      longestAccentRun = Math.max(longestAccentRun, accentRun);
      const previous = chars[i - 1];
      // A capital after a small letter inside a word: the case of another alphabet read wrongly (KOI8 as 1251).
      if (previous !== undefined && (code >= 0x80 || previous >= "\u0080") && UPPER.test(char) && LOWER.test(previous)) score -= 2;
      if (name !== "Latin" && UPPER.test(char)) casedCapitals++;
      if (name !== "Latin" && LOWER.test(char)) casedSmall++;
    }
    if (seen.size > 1) score -= 5;
    else if (longestAccentRun >= 3) score -= 3;
    else if (seen.has("CJK") && chars.length <= MAX_SPACED_CJK_WORD) score -= 1;
    else score += extra;
  }
  // Only small letters of a cased script: an uncased one (Hebrew, Arabic) read as Cyrillic or Greek.
  const uncased = casedCapitals === 0 && casedSmall >= MIN_LETTERS_FOR_CASE ? casedSmall / 2 : 0;
  return score - Math.max(0, upper - lower) - uncased;
}

/** The share of the accented letters seen that the best single alphabet of the encoding's languages covers. */
function alphabetCoverage(text: string, alphabets: readonly string[]): number {
  if (alphabets.length === 0) return 0;
  const counts = new Map<string, number>();
  let total = 0;
  for (const char of text.toLowerCase()) {
    if (char < "\u00c0" || !LETTER.test(char) || scriptOf(char) !== "Latin") continue;
    counts.set(char, (counts.get(char) ?? 0) + 1);
    total++;
  }
  if (total === 0) return 0;
  let best = 0;
  for (const alphabet of alphabets) {
    let covered = 0;
    for (const [char, count] of counts) if (alphabet.includes(char)) covered += count;
    best = Math.max(best, covered / total);
  }
  return best;
}

function decodes(bytes: Uint8Array, encoding: string): string | undefined {
  try {
    return new TextDecoder(encoding, { fatal: true }).decode(bytes, { stream: true });
  } catch {
    return undefined;
  }
}

/** The share of double-byte characters whose lead byte is in the encoding's common range. */
function commonShare(bytes: Uint8Array, { lead, common }: (typeof DOUBLE_BYTE)[number]): number {
  let pairs = 0;
  let frequent = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i] as number;
    if (byte < 0x80 || !lead(byte)) continue;
    pairs++;
    if (common(byte)) frequent++;
    i++;
  }
  return pairs > 0 ? frequent / pairs : 0;
}

/** The most likely legacy encoding of bytes that are not UTF-8 and declare no encoding. */
export function detectCharset(bytes: Uint8Array): string {
  const sample = bytes.subarray(0, SAMPLE_BYTES);
  if (!sample.some((byte) => byte >= 0x80)) return ISO_2022_JP.test(new TextDecoder("windows-1252").decode(sample)) ? "iso-2022-jp" : "windows-1252";
  let best = "windows-1252";
  let bestScore = Number.NEGATIVE_INFINITY;
  const consider = (encoding: string, tieBreak: (text: string) => number): void => {
    const text = decodes(sample, encoding);
    if (text === undefined) return;
    // The tie-break (alphabet coverage, share of common characters) weighs less than one well-formed word.
    const score = writingScore(text) + tieBreak(text);
    if (score > bestScore) {
      best = encoding;
      bestScore = score;
    }
  };
  for (const { encoding, alphabets } of SINGLE_BYTE) consider(encoding, (text) => alphabetCoverage(text, alphabets));
  for (const candidate of DOUBLE_BYTE) consider(candidate.encoding, () => commonShare(sample, candidate));
  return best;
}
