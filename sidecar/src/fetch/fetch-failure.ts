import { fail, failWith, type CodedError, type Failure, type FetchOptions } from "@edge-web/shared";
import type { ResourceFailureKind } from "./fetch-resource.ts";

/**
 * A download's failure (the egress path's, or the fetch service's queue's) in the fetch tool's codes,
 * with the fault where CONTENT_FETCH_FAILED covers several: what fetch_content and a map answer.
 */
export function fetchFailure(failure: CodedError<ResourceFailureKind>, shown: string, options: FetchOptions, waited: { budgetMs: number; queuedMs: number }): Failure {
  const { message } = failure;
  switch (failure.code) {
    case "busy":
      return failWith("CONTENT_FETCH_FAILED", message, { fault: "unavailable" });
    case "queue-timeout":
      return fail("CONTENT_FETCH_TIMEOUT", `Fetching ${shown} ${message} and could not start within its ${waited.budgetMs} ms deadline (web.timeoutMs); retry later or raise web.timeoutMs.`);
    case "cancelled":
      return fail("CONTENT_FETCH_TIMEOUT", `Fetching ${shown} ${message}.`);
    case "invalid-url":
      return fail("CONTENT_FETCH_INVALID_URL", message);
    case "timeout": {
      const queued = waited.queuedMs > 0 ? `, ${waited.queuedMs} ms of it waiting in the fetch service's queue` : "";
      return fail("CONTENT_FETCH_TIMEOUT", `Fetching ${shown} did not finish within web.timeoutMs (${options.timeoutMs} ms${queued}); retry or raise the limit.`);
    }
    case "aborted":
      return fail("CONTENT_FETCH_TIMEOUT", `Fetching ${shown} was aborted.`);
    case "config":
      return fail("INVALID_INPUT", message);
    case "blocked":
      return failWith("CONTENT_FETCH_FAILED", message, { fault: "policy" });
    case "robots":
      return failWith("CONTENT_FETCH_FAILED", message, { fault: "robots" });
    case "dns":
    case "redirect":
    case "network":
      return failWith("CONTENT_FETCH_FAILED", message, { fault: "upstream" });
  }
}
