import type { BlockSign } from "./block-sign.ts";
import { ASKS_FOR_A_HUMAN, isShort, wording } from "./page-traits.ts";

/** The titles of "checking your browser" interstitials. */
const INTERSTITIAL_TITLE = /^\s*(?:just a moment|one moment, please|please wait|checking your browser|one more step|attention required|verifying you are human|security check|human verification)\b/i;
/**
 * What only a challenge page runs: Cloudflare's challenge options and orchestration (its challenge
 * platform's path alone is not enough: ordinary pages of its sites load a detection script from it)
 * and AWS WAF's challenge settings.
 */
const CHALLENGE_SCRIPT = /window\._cf_chl_opt\b|\/cdn-cgi\/challenge-platform\/h\/\w+\/orchestrate\/|window\.gokuProps\b|\bawsWafCookieDomainList\b/;
const CHALLENGE_PLATFORM = "/cdn-cgi/challenge-platform/";

/** A short page titled like a browser check that loads a challenge, or a check's title and wording together. */
export const browserCheckPage: BlockSign = {
  name: "browser-check-page",
  recognise(answer) {
    if (!isShort(answer)) return undefined;
    if (CHALLENGE_SCRIPT.test(answer.body)) return "a browser-check interstitial (its challenge script)";
    if (!INTERSTITIAL_TITLE.test(answer.title ?? "")) return undefined;
    if (answer.body.includes(CHALLENGE_PLATFORM)) return `a browser-check interstitial ("${answer.title?.trim()}", a challenge platform's script)`;
    if (ASKS_FOR_A_HUMAN.test(wording(answer))) return `a browser-check interstitial ("${answer.title?.trim()}")`;
    return undefined;
  },
};
