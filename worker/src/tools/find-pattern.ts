import { fail, ok, type Result } from "@edge-web/shared";
import { RE2JS } from "re2js";

/** What `find` searches with: a phrase runs over the whole text, a regex over one line at a time. */
export interface FindPattern {
  regex: RE2JS;
  perLine: boolean;
}

/**
 * The largest compiled program a regex may have. A search's cost grows with the program's size
 * (RE2 runs in time proportional to text × program), so a few large counted repeats such as
 * `.{0,1000}` would leave only a few thousand characters of a search's work budget.
 */
export const FIND_MAX_PROGRAM = 1_000;

const REGEX_FORM = /^\/(.+)\/([gimsu]*)$/s;
const FLAG_BITS: Record<string, number> = { i: RE2JS.CASE_INSENSITIVE, m: RE2JS.MULTILINE, s: RE2JS.DOTALL, g: 0, u: 0 };
/** Any run of whitespace, Unicode spaces (no-break space, …) included, as JavaScript's `\s` was. */
const PHRASE_SPACE = String.raw`[\s\p{Z}\x{FEFF}]+`;

/**
 * `find` as a pattern: `/pattern/flags` (flags from "imsu"; "g" is implied) is a regex, anything
 * else a case-insensitive phrase whose whitespace matches any run of whitespace. Both run on RE2
 * (re2js), which never backtracks: a search's time is linear in the text whatever the pattern.
 */
export function findPattern(raw: string): Result<FindPattern> {
  const find = raw.trim(); // not blank, at most 200 characters: the params' schema says so
  const form = REGEX_FORM.exec(find);
  if (!form || new Set(form[2]).size !== form[2]!.length) {
    const words = find.split(/\s+/).map((word) => RE2JS.quote(word));
    return ok({ regex: RE2JS.compile(words.join(PHRASE_SPACE), RE2JS.CASE_INSENSITIVE), perLine: false });
  }
  const [, source, flags] = form as unknown as [string, string, string];
  let regex: RE2JS;
  try {
    // translateRegExp takes JavaScript's spellings RE2 lacks: (?<name>…), \u{…}, \uXXXX, \cX.
    regex = RE2JS.compile(RE2JS.translateRegExp(source), [...flags].reduce((bits, flag) => bits | FLAG_BITS[flag]!, 0));
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/^error parsing regexp: /, "") : String(error);
    return fail(
      "INVALID_INPUT",
      `find's regex is not accepted (${reason}). find takes RE2 syntax: no lookaround or backreferences, repeat counts up to 1000; rewrite it, or search for a phrase.`,
      ["find"],
    );
  }
  const size = regex.programSize();
  if (size > FIND_MAX_PROGRAM) {
    return fail("INVALID_INPUT", `find's regex is too large: it compiles to ${size} steps, at most ${FIND_MAX_PROGRAM}; use smaller repeat counts.`, ["find"]);
  }
  return ok({ regex, perLine: true });
}
