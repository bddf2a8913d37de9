import type { BlockSign } from "./block-sign.ts";
import { anyRegionHolds, ASKS_FOR_A_HUMAN, hasPasswordField, isRefusal, isShort, SAYS_REFUSED, wording } from "./page-traits.ts";

/** Imperva's block page: a frame of its own resource, answered with any status (often 200). */
const INCAPSULA_RESOURCE = /_Incapsula_Resource\?([^"']*)/gi;
const INCIDENT_ID = /incident_id=/i;

/** A short page refusing the reader ("Access denied", "unusual traffic" …) with a refusing status, or a bot manager's incident frame. */
export const blockPage: BlockSign = {
  name: "block-page",
  recognise(answer) {
    if (!isShort(answer)) return undefined;
    if (anyRegionHolds(answer.body, INCAPSULA_RESOURCE, INCIDENT_ID)) return "a bot manager's incident page";
    // A sign-in page is a page to use, not a block.
    if (!isRefusal(answer) || hasPasswordField(answer.body)) return undefined;
    const said = SAYS_REFUSED.exec(wording(answer)) ?? ASKS_FOR_A_HUMAN.exec(wording(answer));
    return said ? `a block page answered with HTTP ${answer.status} ("${said[0]}")` : undefined;
  },
};
