import type { BlockSign } from "./block-sign.ts";
import { ASKS_FOR_A_HUMAN, isRefusal, isShort, SAYS_REFUSED, wording } from "./page-traits.ts";

/** Imperva's block page: a frame of its own resource, answered with any status (often 200). */
const INCIDENT_FRAME = /_Incapsula_Resource\?[^"']*incident_id=/i;
/** A sign-in page may be answered 401 or 403 and ask whether a robot is there: it is a page to use, not a block. */
const PASSWORD_FIELD = /<input\b[^>]*\btype\s*=\s*["']?password\b/i;

/** A short page refusing the reader ("Access denied", "unusual traffic" …) with a refusing status, or a bot manager's incident frame. */
export const blockPage: BlockSign = {
  name: "block-page",
  recognise(answer) {
    if (!isShort(answer)) return undefined;
    if (INCIDENT_FRAME.test(answer.body)) return "a bot manager's incident page";
    if (!isRefusal(answer) || PASSWORD_FIELD.test(answer.body)) return undefined;
    const said = SAYS_REFUSED.exec(wording(answer)) ?? ASKS_FOR_A_HUMAN.exec(wording(answer));
    return said ? `a block page answered with HTTP ${answer.status} ("${said[0]}")` : undefined;
  },
};
