import { fail, type CodedError, type Failure, type WebConfig } from "@edge-web/shared";
import type { CallSlots, SlotRefusal } from "./call-slots.ts";

const CODES = {
  fetch: { failed: "CONTENT_FETCH_FAILED", timeout: "CONTENT_FETCH_TIMEOUT" },
  search: { failed: "WEB_SEARCH_FAILED", timeout: "WEB_SEARCH_TIMEOUT" },
} as const;

/** A task of `what` that never got one of the session's slots, in the tool's codes. */
export function slotFailure(refusal: CodedError<SlotRefusal>, tool: keyof typeof CODES, what: string, slots: CallSlots, config: WebConfig): Failure {
  const { maxConcurrent, maxQueueSize } = config.concurrency;
  switch (refusal.code) {
    case "queue-full":
      return fail(
        CODES[tool].failed,
        `This session already has ${maxConcurrent} requests running and ${maxQueueSize} calls waiting (web.concurrency); wait for them to finish or send fewer at once.`,
      );
    case "timeout":
      return fail(
        CODES[tool].timeout,
        `${what} waited ${slots.deadline.elapsedMs()} ms in this session's queue (${maxConcurrent} requests at a time, web.concurrency.maxConcurrent) and could not start within its ${slots.deadline.budgetMs} ms deadline (web.timeoutMs); send fewer calls at once or raise the limits.`,
      );
    case "cancelled":
      return fail(CODES[tool].failed, `${what} was cancelled.`);
  }
}
