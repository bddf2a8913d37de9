import { fail, failWith, type CodedError, type Failure, type WebConfig } from "@edge-web/shared";
import type { CallSlots, SlotRefusal } from "./call-slots.ts";
import { FAMILY_CODES as CODES, type ToolFamily } from "./tool-deadline.ts";

/** A task of `what` that never got one of the session's slots, in the tool's codes. */
export function slotFailure(refusal: CodedError<SlotRefusal>, tool: ToolFamily, what: string, slots: CallSlots, config: WebConfig): Failure {
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
        `${what} waited ${slots.deadline.elapsedMs()} ms in this session's queue (${maxConcurrent} requests at a time, web.concurrency.maxConcurrent) or on its way there and could not start within its ${slots.deadline.budgetMs} ms deadline (${CODES[tool].deadline}); send fewer calls at once or raise the limits.`,
      );
    case "cancelled":
      return fail(CODES[tool].failed, `${what} was cancelled.`);
  }
}
