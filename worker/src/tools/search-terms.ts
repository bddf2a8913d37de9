/**
 * English function words: they say how a question is asked ("how long should the…"), not what
 * it is about, and on one page BM25's document frequencies are too few to weigh them down.
 */
const STOPWORDS = new Set(
  (
    "a about above after again against all also am an and any are as at be because been before being below between both but by can could did do does doing don " +
    "down during each etc few for from further get got had has have having he her here hers herself him himself his how i if in into is it its itself just " +
    "may me might more most must my myself no nor not now of off on once only or other our ours ourselves out over own same shall she should so some such " +
    "than that the their theirs them themselves then there these they this those through to too under until up very was we were what when where which " +
    "while who whom why will with would you your yours yourself yourselves"
  ).split(" "),
);

/** Scripts written without spaces between words: read as overlapping pairs of characters. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const TOKEN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]+|(?:(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])[\p{L}\p{M}\p{N}])+/gu;

/**
 * The terms of a text for matching it against another: lower-cased (after NFKC, so full-width
 * forms read as their plain ones) letters and digits, English function words left out, English
 * words reduced by a light suffix stemmer, unspaced scripts as character pairs. A query made only
 * of function words keeps them (`keepStopwords`), so it still asks for something.
 */
export function searchTerms(text: string, keepStopwords = false): string[] {
  const terms: string[] = [];
  for (const [token] of text.normalize("NFKC").toLowerCase().matchAll(TOKEN)) {
    if (UNSPACED.test(token)) {
      const chars = [...token];
      if (chars.length === 1) terms.push(token);
      for (let i = 0; i + 1 < chars.length; i++) terms.push(chars[i]! + chars[i + 1]!);
    } else if (/^\p{N}+$/u.test(token) || token.length > 1) {
      if (keepStopwords || !STOPWORDS.has(token)) terms.push(stem(token));
    }
  }
  return terms;
}

/** A query's terms, its function words kept when they are all it has. */
export function queryTerms(query: string): string[] {
  const terms = searchTerms(query);
  return terms.length > 0 ? terms : searchTerms(query, true);
}

/**
 * Plural and verb endings off English words, so "retries", "retried" and "retry", or "stored",
 * "storing" and "store", meet: -ies/-ied → y, -es after a sibilant, -s, -ing, -ed (a doubled
 * consonant undoubled), then a final -e. Words of other letters pass unchanged.
 */
function stem(word: string): string {
  if (word.length <= 3 || !/^[a-z]+$/.test(word)) return word;
  let w = word;
  if (w.endsWith("ies") && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (/(?:ss|ch|sh|x|z)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith("s") && !/(?:ss|us|is)$/.test(w)) w = w.slice(0, -1);
  if (w.endsWith("ied") && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith("ing") && w.length > 5) w = undouble(w.slice(0, -3));
  else if (w.endsWith("ed") && w.length > 4) w = undouble(w.slice(0, -2));
  if (w.endsWith("e") && w.length > 3) w = w.slice(0, -1);
  return w;
}

const undouble = (w: string) => (/([b-df-hj-km-np-rtv-y])\1$/.test(w) ? w.slice(0, -1) : w);
