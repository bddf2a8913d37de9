import {
  ExtractedContentSchema,
  fail,
  isWebErrorCode,
  PROVIDER_NAMES,
  SidecarSearchAnswerSchema,
  type CodedError,
  type ExtractedContent,
  type FetchOptions,
  type Result,
  type SearchOutcome,
  type SidecarSearchRequest,
  type SidecarSearchSuccess,
} from "@edge-web/shared";
import * as v from "valibot";
import type { Env } from "./env.ts";

const FailureSchema = v.object({
  ok: v.literal(false),
  error: v.object({ code: v.string(), message: v.string(), retryAfter: v.optional(v.string()) }),
});
const FetchAnswerSchema = v.union([v.object({ ok: v.literal(true), value: ExtractedContentSchema, bytes: v.optional(v.number()) }), FailureSchema]);
export type SearchAnswer = SearchOutcome<SidecarSearchSuccess>;

export interface SidecarClient {
  /** The page, and how many body bytes the sidecar read for it. */
  fetchContent(url: string, preferReader: boolean, options: FetchOptions, signal?: AbortSignal): Promise<Result<ExtractedContent> & { bytes?: number }>;
  search(request: SidecarSearchRequest, signal?: AbortSignal): Promise<SearchAnswer>;
  healthy(): Promise<boolean>;
}

/** Extra time the worker allows beyond the sidecar's own deadlines before giving up on it. */
const GRACE_MS = 5_000;
/** auto mode may try every provider in turn, each within web.timeoutMs. */
const MAX_PROVIDER_ATTEMPTS = PROVIDER_NAMES.length;

interface CallPlan<S extends v.GenericSchema> {
  path: string;
  body: unknown;
  answer: S;
  budgetMs: number;
  /** The tool's codes for a sidecar that is late or unusable. */
  timeoutCode: "CONTENT_FETCH_TIMEOUT" | "WEB_SEARCH_TIMEOUT";
  failureCode: "CONTENT_FETCH_FAILED" | "WEB_SEARCH_FAILED";
  what: string;
}

/** Talks to the sidecar over HTTP with its bearer token; the token never appears in errors. */
export function createSidecarClient(env: Pick<Env, "SIDECAR_URL" | "SIDECAR_TOKEN">): SidecarClient {
  const base = env.SIDECAR_URL.replace(/\/+$/, "");
  const headers = { authorization: `Bearer ${env.SIDECAR_TOKEN ?? ""}`, "content-type": "application/json" };

  async function call<S extends v.GenericSchema>(plan: CallPlan<S>, signal?: AbortSignal): Promise<v.InferOutput<S> | { ok: false; error: CodedError }> {
    const deadline = AbortSignal.timeout(plan.budgetMs);
    let response: Response;
    try {
      response = await fetch(`${base}${plan.path}`, {
        method: "POST",
        headers,
        body: JSON.stringify(plan.body),
        signal: signal ? AbortSignal.any([signal, deadline]) : deadline,
      });
    } catch {
      if (deadline.aborted) return fail(plan.timeoutCode, `${plan.what} took longer than ${plan.budgetMs} ms; try again or raise web.timeoutMs.`);
      if (signal?.aborted) return fail(plan.failureCode, `${plan.what} was cancelled.`);
      return fail(plan.failureCode, "The sidecar is unreachable; check that it is running and SIDECAR_URL points at it.");
    }
    if (response.status === 401) {
      await response.body?.cancel();
      return fail(plan.failureCode, "The sidecar refused the worker's token; set the same SIDECAR_TOKEN on both.");
    }
    const parsed = v.safeParse(plan.answer, await response.json().catch(() => null));
    if (!parsed.success) return fail(plan.failureCode, `The sidecar gave an unexpected answer (HTTP ${response.status}) to ${plan.what}.`);
    const answer = parsed.output as { ok: boolean; error?: { code: string } };
    // Only canonical codes pass through to callers.
    if (!answer.ok && answer.error && !isWebErrorCode(answer.error.code)) answer.error.code = plan.failureCode;
    return parsed.output;
  }

  return {
    fetchContent(url, preferReader, options, signal) {
      return call(
        {
          path: "/v1/fetch",
          body: { url, preferReader, options },
          answer: FetchAnswerSchema,
          budgetMs: options.timeoutMs + (options.enableJinaFallback ? options.jinaTimeoutMs : 0) + GRACE_MS,
          timeoutCode: "CONTENT_FETCH_TIMEOUT",
          failureCode: "CONTENT_FETCH_FAILED",
          what: `Fetching ${url}`,
        },
        signal,
      ) as Promise<Result<ExtractedContent> & { bytes?: number }>;
    },

    search(request, signal) {
      return call(
        {
          path: "/v1/search",
          body: request,
          answer: SidecarSearchAnswerSchema,
          budgetMs: request.timeoutMs * MAX_PROVIDER_ATTEMPTS + GRACE_MS,
          timeoutCode: "WEB_SEARCH_TIMEOUT",
          failureCode: "WEB_SEARCH_FAILED",
          what: `Searching for "${request.query}"`,
        },
        signal,
      ) as Promise<SearchAnswer>;
    },

    async healthy() {
      try {
        const response = await fetch(`${base}/healthz`, { headers, signal: AbortSignal.timeout(3_000) });
        await response.body?.cancel();
        return response.ok;
      } catch {
        return false;
      }
    },
  };
}
