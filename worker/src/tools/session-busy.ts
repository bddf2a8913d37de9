import { fail, type WebConfig } from "@edge-web/shared";

/** The session's concurrency limit (web.concurrency) is taken and its queue is full: fail at once. */
export function sessionBusy(code: "CONTENT_FETCH_FAILED" | "WEB_SEARCH_FAILED", config: WebConfig) {
  const { maxConcurrent, maxQueueSize } = config.concurrency;
  return fail(
    code,
    `This session already has ${maxConcurrent} requests running and ${maxQueueSize} waiting (web.concurrency); wait for them to finish or send fewer at once.`,
  );
}
