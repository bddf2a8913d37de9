import { fail, ok, type Result } from "@edge-web/shared";

/** What `find` searches with: a phrase runs over the whole text, a regex over one line at a time. */
export interface FindPattern {
  regex: RegExp;
  perLine: boolean;
}

const REGEX_FORM = /^\/(.+)\/([gimsu]*)$/s;
const SYNTAX = /[.*+?^${}()|[\]\\/]/g;

/**
 * `find` as a pattern: `/pattern/flags` (flags from "imsu"; "g" is implied) is a regex, anything
 * else a case-insensitive phrase whose whitespace matches any run of whitespace.
 */
export function findPattern(raw: string): Result<FindPattern> {
  const find = raw.trim(); // not blank, at most 200 characters: the params' schema says so
  const form = REGEX_FORM.exec(find);
  if (!form || new Set(form[2]).size !== form[2]!.length) {
    const words = find.split(/\s+/).map((word) => word.replace(SYNTAX, "\\$&"));
    return ok({ regex: new RegExp(words.join("\\s+"), "giu"), perLine: false });
  }
  const [, source, flags] = form as unknown as [string, string, string];
  const risk = backtrackingRisk(source);
  if (risk) return fail("INVALID_INPUT", `find's regex is refused: ${risk}. Rewrite it, or search for a phrase.`, ["find"]);
  try {
    return ok({ regex: new RegExp(source, `${flags.replace("g", "")}g`), perLine: true });
  } catch (error) {
    return fail("INVALID_INPUT", `find is not a valid regex: ${error instanceof Error ? error.message : String(error)}.`, ["find"]);
  }
}

/**
 * Why a regex could backtrack for a very long time, or undefined: a backreference, or a repeated
 * group that itself repeats or alternates inside (the shapes of exponential backtracking).
 */
function backtrackingRisk(source: string): string | undefined {
  // Per open group: does it hold a quantifier or an alternation?
  const groups: boolean[] = [false];
  let lastGroupRisky = false;
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    const afterGroup = lastGroupRisky;
    lastGroupRisky = false;
    if (char === "\\") {
      const next = source[i + 1] ?? "";
      if (/[1-9k]/.test(next)) return "backreferences are not allowed";
      i++;
    } else if (char === "[") {
      for (i++; i < source.length && source[i] !== "]"; i++) if (source[i] === "\\") i++;
    } else if (char === "(") {
      groups.push(false);
      if (source[i + 1] === "?") i += source[i + 2] === "<" && source[i + 3] !== "=" && source[i + 3] !== "!" ? Math.max(2, source.indexOf(">", i) - i) : 2;
    } else if (char === ")") {
      lastGroupRisky = groups.length > 1 ? groups.pop()! : false;
      if (lastGroupRisky) groups[groups.length - 1] = true;
    } else if (char === "|") {
      groups[groups.length - 1] = true;
    } else {
      const repeat = quantifier(source, i);
      if (repeat) {
        if (repeat.repeats && afterGroup) return "a repeated group may not itself repeat or alternate inside, as in (a+)+ or (a|b)*";
        groups[groups.length - 1] = true;
        i += repeat.length - 1;
        if (source[i + 1] === "?") i++; // lazy
      }
    }
  }
  return undefined;
}

/** The quantifier at `i`: its length and whether it repeats (more than once), or undefined. */
function quantifier(source: string, i: number): { length: number; repeats: boolean } | undefined {
  const char = source[i];
  if (char === "*" || char === "+") return { length: 1, repeats: true };
  if (char === "?") return { length: 1, repeats: false };
  const braces = char === "{" ? /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i)) : null;
  if (!braces) return undefined;
  const [text, min, comma, max] = braces as unknown as [string, string, string | undefined, string | undefined];
  return { length: text.length, repeats: comma === undefined ? Number(min) > 1 : max === "" || Number(max) > 1 };
}
