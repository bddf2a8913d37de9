import type { PageAnswer } from "./block-sign.ts";

/**
 * Interstitials, captcha walls and block pages show a sentence or two, a widget and a footer; the
 * shortest real pages that could say the same words (a 403 of an article behind a login) say more.
 */
export const SHORT_PAGE_CHARS = 2_000;

/** The statuses bot managers refuse with (401 only without an authentication challenge: that is a login, not a block). */
export const isRefusal = ({ status, headers }: PageAnswer): boolean =>
  status === 403 || status === 429 || status === 503 || (status === 401 && headers["www-authenticate"] === undefined);

export const isShort = (answer: PageAnswer): boolean => answer.shownChars <= SHORT_PAGE_CHARS;

/** What the page says to its reader: its title and text. */
export const wording = (answer: PageAnswer): string => `${answer.title ?? ""}\n${answer.text}`;

/** "Verify you are human", "Are you a robot?", "Press & Hold", "Checking your browser" …: a page asking to prove a person is there. */
export const ASKS_FOR_A_HUMAN =
  /\bverify(?:ing)? (?:that )?you(?:'re| are) (?:a )?human\b|\b(?:are you|you are|you're|i'm|i am) (?:a )?(?:robot|human)\b|\bnot an? (?:robot|bot)\b|\bhuman verification\b|\bsecurity (?:check|verification)\b|\bchecking (?:your browser|if the site connection is secure)\b|\bcomplete the (?:captcha|challenge|security check)\b|\bpress (?:&|and) hold\b|\bconfirm (?:that )?you(?:'re| are) (?:a )?human\b|\bsolve (?:the|this) (?:captcha|puzzle)\b/i;

/** "Access denied", "Request blocked", "You have been blocked", "unusual traffic", "automated requests" …: a refusal of the reader, not a page. */
export const SAYS_REFUSED =
  /\baccess (?:is |has been )?denied\b|\baccess to this page has been (?:denied|blocked)\b|\brequest (?:blocked|unsuccessful|rejected)\b|\byou(?: have|'ve)? been blocked\b|\b(?:you are|you're) blocked\b|\bunusual (?:traffic|activity)\b|\bautomated (?:queries|requests|traffic|access|browsing)\b|\b(?:bot|robot) (?:detected|traffic|activity)\b|\bsuspicious (?:activity|traffic)\b|\bincident id\b/i;

/**
 * Whether a region of the markup holds `holds`: the regions are what `regions` (a global pattern, running from where a
 * region opens to where it ends) finds, its first group if it has one. Found one after another, each region is read
 * once; one pattern for both was tried again from each opening inside a region that does not end (`<input` after
 * `<input` with no `>`), reading on to the same end each time: 400 KB of such markup took over a minute.
 */
export function anyRegionHolds(markup: string, regions: RegExp, holds: RegExp): boolean {
  for (const [region, inner] of markup.matchAll(regions)) if (holds.test(inner ?? region)) return true;
  return false;
}

/** An `<input type=password>`: a sign-in page may be answered 401 or 403 and ask whether a robot is there. */
export const hasPasswordField = (markup: string): boolean => anyRegionHolds(markup, /<input\b([^>]*)/gi, /\btype\s*=\s*["']?password\b/i);

