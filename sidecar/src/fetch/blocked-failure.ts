import { failWith, type Failure } from "@edge-web/shared";

/** A bot check or block page answered instead of the page: an upstream refusal, never content (nothing caches or stores it). */
export function blockedFailure(shown: string, upstreamStatus: number, reason: string): Failure {
  return failWith(
    "CONTENT_FETCH_FAILED",
    `${shown} answered ${reason} instead of the page: the site refused automated reading. This service does not get past bot checks; read the page from another source.`,
    { fault: "blocked", upstreamStatus },
  );
}
