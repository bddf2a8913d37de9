import {
  displayUrl,
  fail,
  FailureSchema,
  isWebErrorCode,
  SidecarFetchAnswerSchema,
  SidecarSearchAnswerSchema,
  type Deadline,
  type ExtractedContent,
  type Failure,
  type FetchOptions,
  type SearchFailure,
  type SidecarSearchRequest,
  type SidecarSearchSuccess,
  type StepTimings,
} from "@edge-web/shared";
import * as v from "valibot";
import type { Env } from "./env.ts";

/** Per-step timings ride along when the request asked for verbose debugging. */
type Timed<T> = T & { timings?: StepTimings };
/** The page and the body bytes the sidecar read for it, or a failure in canonical codes. */
export type FetchAnswer = Timed<{ ok: true; value: ExtractedContent; bytes: number } | Failure>;
/** The provider's results, or a failure in canonical codes with the provider's Retry-After. */
export type SearchAnswer = Timed<{ ok: true; value: SidecarSearchSuccess } | SearchFailure>;

export interface SidecarClient {
  fetchContent(url: string, preferReader: boolean, options: FetchOptions, deadline: Deadline, cancel?: AbortSignal): Promise<FetchAnswer>;
  search(request: SidecarSearchRequest, deadline: Deadline, cancel?: AbortSignal): Promise<SearchAnswer>;
  healthy(): Promise<boolean>;
}

/** How long past a call's deadline the worker waits for the sidecar's own timeout answer before giving up on it. */
const GRACE_MS = 250;

interface CallPlan<S extends v.GenericSchema> {
  path: string;
  body: object;
  answer: S;
  /** The tool's codes for a sidecar that is late or unusable. */
  timeoutCode: "CONTENT_FETCH_TIMEOUT" | "WEB_SEARCH_TIMEOUT";
  failureCode: "CONTENT_FETCH_FAILED" | "WEB_SEARCH_FAILED";
  what: string;
}

/** Talks to the sidecar over HTTP with its bearer token; the token never appears in errors. */
export function createSidecarClient(env: Pick<Env, "SIDECAR_URL" | "SIDECAR_TOKEN">): SidecarClient {
  const base = env.SIDECAR_URL.replace(/\/+$/, "");
  const headers = { authorization: `Bearer ${env.SIDECAR_TOKEN ?? ""}`, "content-type": "application/json" };

  /** One request carrying the time left of the call's deadline (`budgetMs`), which the sidecar keeps to. */
  async function call<S extends v.GenericSchema, A>(plan: CallPlan<S>, deadline: Deadline, cancel?: AbortSignal): Promise<A | Failure> {
    const budgetMs = Math.max(1, deadline.remainingMs());
    const cutoff = AbortSignal.timeout(budgetMs + GRACE_MS);
    let response: Response;
    try {
      response = await fetch(`${base}${plan.path}`, {
        method: "POST",
        headers,
        body: JSON.stringify({ ...plan.body, budgetMs }),
        signal: cancel ? AbortSignal.any([cancel, cutoff]) : cutoff,
      });
    } catch {
      if (cancel?.aborted) return fail(plan.failureCode, `${plan.what} was cancelled.`);
      if (cutoff.aborted) return fail(plan.timeoutCode, `${plan.what} did not finish within its ${deadline.budgetMs} ms deadline (web.timeoutMs); retry or raise web.timeoutMs.`);
      return fail(plan.failureCode, "The sidecar is unreachable; check that it is running and SIDECAR_URL points at it.");
    }
    if (response.status === 401) {
      await response.body?.cancel();
      return fail(plan.failureCode, "The sidecar refused the worker's token; set the same SIDECAR_TOKEN on both.");
    }
    const json: unknown = await response.json().catch(() => null);
    const answer = response.status === 200 ? v.safeParse(plan.answer, json) : undefined;
    if (answer?.success) return passCanonical(answer.output as { ok: boolean; error?: { code: string } }, plan.failureCode) as A;
    // The sidecar refused the request itself: say what it said, in the tool's codes.
    const refusal = v.safeParse(FailureSchema, json);
    if (refusal.success) {
      const { code, message } = refusal.output.error;
      return isWebErrorCode(code)
        ? fail(code, message)
        : fail(plan.failureCode, `The sidecar refused ${plan.what} (${code}): ${message}`);
    }
    return fail(plan.failureCode, `The sidecar gave an unexpected answer (HTTP ${response.status}) to ${plan.what}.`);
  }

  return {
    fetchContent(url, preferReader, options, deadline, cancel) {
      const plan = {
        path: "/v1/fetch",
        body: { url, preferReader, options },
        answer: SidecarFetchAnswerSchema,
        timeoutCode: "CONTENT_FETCH_TIMEOUT",
        failureCode: "CONTENT_FETCH_FAILED",
        what: `Fetching ${displayUrl(url)}`,
      } as const;
      return call<typeof SidecarFetchAnswerSchema, FetchAnswer>(plan, deadline, cancel);
    },

    search(request, deadline, cancel) {
      const plan = {
        path: "/v1/search",
        body: request,
        answer: SidecarSearchAnswerSchema,
        timeoutCode: "WEB_SEARCH_TIMEOUT",
        failureCode: "WEB_SEARCH_FAILED",
        what: `Searching for ${JSON.stringify(request.query.length > 100 ? `${request.query.slice(0, 100)}…` : request.query)}`,
      } as const;
      return call<typeof SidecarSearchAnswerSchema, SearchAnswer>(plan, deadline, cancel);
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

/** Only canonical codes reach callers; anything else becomes the tool's failure code, message kept. */
function passCanonical<A extends { ok: boolean; error?: { code: string } }>(answer: A, failureCode: string): A {
  if (answer.ok || !answer.error || isWebErrorCode(answer.error.code)) return answer;
  return { ...answer, error: { ...answer.error, code: failureCode } };
}
