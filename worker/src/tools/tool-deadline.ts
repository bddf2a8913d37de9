import { deadlineFrom, fail, type Deadline, type Failure, type WebConfig } from "@edge-web/shared";
import { SIDECAR_GRACE_MS } from "../sidecar-client.ts";

/**
 * A direct call's work (its queue waits, the sidecar's budget) ends this long before the call's
 * deadline, so that its own answer — with the reason it gave up and its frames — travels back to
 * the worker in time; the worker answers the timeout itself at the deadline, never after it. The
 * sidecar client waits SIDECAR_GRACE_MS past the work's deadline for a late answer; the rest is the
 * way back.
 */
export const ANSWER_RESERVE_MS = SIDECAR_GRACE_MS + 50;

/** Each tool family's codes, and the setting that holds its deadline. */
export const FAMILY_CODES = {
  fetch: { failed: "CONTENT_FETCH_FAILED", timeout: "CONTENT_FETCH_TIMEOUT", deadline: "web.timeoutMs" },
  search: { failed: "WEB_SEARCH_FAILED", timeout: "WEB_SEARCH_TIMEOUT", deadline: "web.timeoutMs" },
  convert: { failed: "CONVERT_FAILED", timeout: "CONVERT_TIMEOUT", deadline: "web.convert.timeoutMs" },
} as const;

export type ToolFamily = keyof typeof FAMILY_CODES;

/** How long one call of a tool may take, and whose codes it answers when that passes. */
export interface ToolDeadline<P = unknown> {
  family: ToolFamily;
  budgetMs(params: P, config: WebConfig): number;
}

/**
 * A call's deadline, counted from the context's `startedAt` — when the worker received a direct
 * call, when a turn's tool call began — so the time it waited to reach the session object counts
 * against it; its work ends `reserveMs` early.
 */
export function callDeadline<P>(deadline: ToolDeadline<P>, params: P, ctx: { config: WebConfig; startedAt?: number; reserveMs?: number }): Deadline {
  return deadlineFrom(ctx.startedAt ?? Date.now(), deadline.budgetMs(params, ctx.config), ctx.reserveMs);
}

/** The answer of a call whose deadline passed before its work answered. */
export function deadlinePassed(family: ToolFamily, budgetMs: number): Failure {
  const { timeout, deadline } = FAMILY_CODES[family];
  return fail(timeout, `The call did not finish within its ${budgetMs} ms deadline (${deadline}), counted from when the service received it; retry, send fewer calls at once, or raise ${deadline}.`);
}

/**
 * `work`'s answer, or `late()`'s once `deadline` fires first: a call stuck behind others (in a
 * session object busy with CPU, a queue, a sidecar that does not answer) is still answered on time.
 * What `work` does afterwards is its own business; its failure then is not the caller's.
 */
export function answerByDeadline<T>(work: Promise<T>, deadline: Deadline, late: () => T): Promise<T> {
  if (deadline.signal.aborted) {
    work.catch(() => {});
    return Promise.resolve(late());
  }
  return new Promise<T>((resolve, reject) => {
    const onLate = () => {
      work.catch(() => {});
      resolve(late());
    };
    deadline.signal.addEventListener("abort", onLate, { once: true });
    work.then(resolve, reject).finally(() => deadline.signal.removeEventListener("abort", onLate));
  });
}
