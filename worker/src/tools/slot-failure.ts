import { fail, failWith, type CodedError, type Failure, type WebConfig } from "@edge-web/shared";
import type { CallSlots, SlotRefusal } from "./call-slots.ts";

/** Each tool family's codes, and the setting that holds its deadline. */
const CODES = {
  fetch: { failed: "CONTENT_FETCH_FAILED", timeout: "CONTENT_FETCH_TIMEOUT", deadline: "web.timeoutMs" },
  search: { failed: "WEB_SEARCH_FAILED", timeout: "WEB_SEARCH_TIMEOUT", deadline: "web.timeoutMs" },
  convert: { failed: "CONVERT_FAILED", timeout: "CONVERT_TIMEOUT", deadline: "web.convert.timeoutMs" },
} as const;

/** A task of `what` that never got one of the session's slots, in the tool's codes. */
export function slotFailure(refusal: CodedError<SlotRefusal>, tool: keyof typeof CODES, what: string, slots: CallSlots, config: WebConfig): Failure {
  const { maxConcurrent, maxQueueSize } = config.concurrency;
  switch (refusal.code) {
    case "queue-full":
      return failWith(
        CODES[tool].failed,
        `This session already has ${maxConcurrent} requests running and ${maxQueueSize} calls waiting (web.concurrency); wait for them to finish or send fewer at once.`,
        { fault: "too-many-requests" },
      );
    case "timeout":
      return fail(
        CODES[tool].timeout,
        `${what} waited ${slots.deadline.elapsedMs()} ms in this session's queue (${maxConcurrent} requests at a time, web.concurrency.maxConcurrent) and could not start within its ${slots.deadline.budgetMs} ms deadline (${CODES[tool].deadline}); send fewer calls at once or raise the limits.`,
      );
    case "cancelled":
      return fail(CODES[tool].failed, `${what} was cancelled.`);
  }
}
