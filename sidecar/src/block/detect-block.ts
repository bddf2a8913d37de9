import type { PageAnswer } from "./block-sign.ts";
import { BLOCK_SIGNS } from "./block-signs.ts";

/** The first sign that the answer is a bot check or block page rather than the page: its name and what it saw. */
export function detectBlock(answer: PageAnswer): { sign: string; reason: string } | undefined {
  for (const sign of BLOCK_SIGNS) {
    const reason = sign.recognise(answer);
    if (reason !== undefined) return { sign: sign.name, reason };
  }
  return undefined;
}
