import {
  CONVERT_REQUEST_HEADER,
  displayUrl,
  fail,
  FailureSchema,
  failWith,
  isConvertErrorCode,
  isWebErrorCode,
  SidecarConvertAnswerSchema,
  SidecarFetchAnswerSchema,
  SidecarMapAnswerSchema,
  SidecarSearchAnswerSchema,
  SidecarVetAnswerSchema,
  type ConvertErrorCode,
  type PageCaching,
  type PageOptions,
  type RenderCounts,
  type Deadline,
  type ExtractedContent,
  type Failure,
  type Result,
  type RobotsEntry,
  type FetchOptions,
  type SearchFailure,
  type SidecarConvertAnswer,
  type SidecarConvertFileRequest,
  type SidecarConvertUrlRequest,
  type SidecarFetchRequest,
  type SidecarSearchRequest,
  type SidecarSearchSuccess,
  type SidecarVetRequest,
  type StepTimings,
  type WebErrorCode,
  type MapAnswer,
  type SidecarMapRequest,
} from "@edge-web/shared";
import * as v from "valibot";
import type { Env } from "./env.ts";
import { sidecarFetch } from "./sidecar-fetch.ts";

/** Per-step timings ride along when the request asked for verbose debugging. */
type Timed<T> = T & { timings?: StepTimings };
/**
 * The page, the body bytes the sidecar read for it, what the origin said about keeping it and its
 * render's counts; that a revalidated copy is current (the origin's 304); or a failure in canonical
 * codes. Each with the robots.txt records the sidecar read for it, for KV.
 */
export type FetchAnswer = { robotsRead?: RobotsEntry[] } & Timed<
  { ok: true; value: ExtractedContent; bytes: number; caching?: PageCaching; render?: RenderCounts } | { ok: true; notModified: true; caching: PageCaching } | Failure
>;
/** The provider's results, or a failure in canonical codes with the provider's Retry-After. */
export type SearchAnswer = Timed<{ ok: true; value: SidecarSearchSuccess } | SearchFailure>;

/** How one page is fetched (its page options), the validators of a cached copy to revalidate, and the record of its origin's robots.txt. */
export type PageRequest = PageOptions & Pick<SidecarFetchRequest, "revalidate"> & { robotsRecord?: RobotsEntry };

export interface SidecarClient {
  fetchContent(url: string, page: PageRequest, options: FetchOptions, deadline: Deadline, cancel?: AbortSignal): Promise<FetchAnswer>;
  search(request: SidecarSearchRequest, deadline: Deadline, cancel?: AbortSignal): Promise<SearchAnswer>;
  /** A site's URLs from its sitemaps, llms.txt and start page (failures in fetch_content's codes). */
  map(request: Omit<SidecarMapRequest, "budgetMs">, deadline: Deadline, cancel?: AbortSignal): Promise<Result<MapAnswer, WebErrorCode>>;
  /** A document at a URL, downloaded through the sidecar's fetch pipeline and converted there. */
  convertUrl(request: Omit<SidecarConvertUrlRequest, "budgetMs">, deadline: Deadline, cancel?: AbortSignal): Promise<SidecarConvertAnswer>;
  /** A document's bytes (an attachment), converted by the sidecar. */
  convertFile(bytes: Uint8Array, request: Omit<SidecarConvertFileRequest, "budgetMs">, deadline: Deadline, cancel?: AbortSignal): Promise<SidecarConvertAnswer>;
  /**
   * Whether a configured URL may be reached (a provider's base URL written through the config API),
   * DNS answers included. Failures carry the egress kind as their code (blocked, dns, invalid-url…),
   * or SIDECAR_UNAVAILABLE when the sidecar could not answer.
   */
  vetUrl(request: Omit<SidecarVetRequest, "budgetMs">, deadline: Deadline): Promise<Result<{ address: string }, string>>;
  healthy(): Promise<boolean>;
}

/** A sidecar that cannot be used is this service's own failure (503), not an upstream's. */
const UNAVAILABLE = { fault: "unavailable" } as const;

/** How long past a call's deadline the worker waits for the sidecar's own timeout answer before giving up on it. */
export const SIDECAR_GRACE_MS = 250;

interface CallPlan<S extends v.GenericSchema, C extends string> {
  path: string;
  /** A JSON body (budgetMs is added), or raw bytes whose description rides in a header (budgetMs added there). */
  body: object | { bytes: Uint8Array; header: object };
  answer: S;
  /** The tool's codes for a sidecar that is late or unusable. */
  timeoutCode: C & ("CONTENT_FETCH_TIMEOUT" | "WEB_SEARCH_TIMEOUT" | "CONVERT_TIMEOUT");
  failureCode: C & ("CONTENT_FETCH_FAILED" | "WEB_SEARCH_FAILED" | "CONVERT_FAILED");
  /** The codes the tool may answer; the sidecar's other codes become failureCode. */
  canonical: (code: string) => code is C;
  /** The host the call is about (sidecar-instance.ts), when there is one. */
  host?: string;
  /** The setting that holds the deadline, named when it passes. */
  timeoutSetting: string;
  what: string;
}

const isBytes = (body: CallPlan<v.GenericSchema, string>["body"]): body is { bytes: Uint8Array; header: object } => "bytes" in body && body.bytes instanceof Uint8Array;

/**
 * Talks to the sidecar over HTTP with its bearer token; the token never appears in errors. A
 * session's client sends `sessionKey` (an opaque key for the session) with its fetches, so the
 * sidecar shares its render slots fairly between sessions.
 */
export function createSidecarClient(env: Pick<Env, "SIDECAR_URL" | "SIDECAR_TOKEN" | "SIDECAR" | "SIDECAR_CONTAINER" | "SIDECAR_INSTANCES">, sessionKey?: string): SidecarClient {
  const fetch = sidecarFetch(env);
  const auth = { authorization: `Bearer ${env.SIDECAR_TOKEN ?? ""}` };
  const headers = { ...auth, "content-type": "application/json" };

  /** One request carrying the time left of the call's deadline (`budgetMs`), which the sidecar keeps to. */
  async function call<S extends v.GenericSchema, A, C extends string>(plan: CallPlan<S, C>, deadline: Deadline, cancel?: AbortSignal): Promise<A | Failure<C>> {
    const late = () => fail(plan.timeoutCode, `${plan.what} did not finish within its ${deadline.budgetMs} ms deadline (${plan.timeoutSetting}); retry or raise ${plan.timeoutSetting}.`);
    // Work whose deadline has passed is not sent: the sidecar would only spend a slot on it.
    if (deadline.remainingMs() === 0) return late();
    const cutoff = AbortSignal.timeout(deadline.remainingMs() + SIDECAR_GRACE_MS);
    const stoppedEarly = (): Failure<C> | undefined => {
      if (cancel?.aborted) return fail(plan.failureCode, `${plan.what} was cancelled.`);
      if (cutoff.aborted) return late();
      return undefined;
    };
    let response: Response | undefined;
    // A kept-alive connection the sidecar closed just as it was reused fails at once: every call is idempotent, so it is sent once more.
    for (let attempt = 0; !response; attempt++) {
      try {
        const { body } = plan;
        const budgetMs = Math.max(1, deadline.remainingMs());
        response = await fetch(plan.path, {
          method: "POST",
          ...(isBytes(body)
            ? { headers: { ...auth, "content-type": "application/octet-stream", [CONVERT_REQUEST_HEADER]: encodeURIComponent(JSON.stringify({ ...body.header, budgetMs })) }, body: body.bytes }
            : { headers, body: JSON.stringify({ ...body, budgetMs }) }),
          signal: cancel ? AbortSignal.any([cancel, cutoff]) : cutoff,
        }, plan.host);
      } catch {
        const stopped = stoppedEarly();
        if (stopped) return stopped;
        if (attempt > 0) return failWith(plan.failureCode, "The sidecar is unreachable; check that it is running and SIDECAR_URL points at it.", UNAVAILABLE);
      }
    }
    if (response.status === 401) {
      await response.body?.cancel();
      return failWith(plan.failureCode, "The sidecar refused the worker's token; set the same SIDECAR_TOKEN on both.", UNAVAILABLE);
    }
    const json: unknown = await response.json().catch(() => null);
    // The deadline (or the caller) may cut the answer off while it is being read.
    if (json === null) {
      const stopped = stoppedEarly();
      if (stopped) return stopped;
    }
    const answer = response.status === 200 ? v.safeParse(plan.answer, json) : undefined;
    if (answer?.success) return passCanonical(answer.output as { ok: boolean; error?: { code: string } }, plan) as A;
    // The sidecar refused the request itself: say what it said, in the tool's codes.
    const refusal = v.safeParse(FailureSchema, json);
    if (refusal.success) {
      const { code, message } = refusal.output.error;
      // A sidecar container that could not start or failed (sidecar-container.ts).
      if (code === "SIDECAR_UNAVAILABLE") return failWith(plan.failureCode, message, UNAVAILABLE);
      return plan.canonical(code) ? fail(code, message) : fail(plan.failureCode, `The sidecar refused ${plan.what} (${code}): ${message}`);
    }
    return fail(plan.failureCode, `The sidecar gave an unexpected answer (HTTP ${response.status}) to ${plan.what}.`);
  }

  return {
    fetchContent(url, page, options, deadline, cancel) {
      const plan = {
        path: "/v1/fetch",
        body: { url, ...page, options, ...(sessionKey && { sessionKey }) } satisfies Omit<SidecarFetchRequest, "budgetMs">,
        answer: SidecarFetchAnswerSchema,
        timeoutCode: "CONTENT_FETCH_TIMEOUT",
        failureCode: "CONTENT_FETCH_FAILED",
        canonical: isWebErrorCode,
        host: hostOf(url),
        timeoutSetting: "web.timeoutMs",
        what: `Fetching ${displayUrl(url)}`,
      } as const;
      return call<typeof SidecarFetchAnswerSchema, FetchAnswer, WebErrorCode>(plan, deadline, cancel);
    },

    search(request, deadline, cancel) {
      const plan = {
        path: "/v1/search",
        body: request,
        answer: SidecarSearchAnswerSchema,
        timeoutCode: "WEB_SEARCH_TIMEOUT",
        failureCode: "WEB_SEARCH_FAILED",
        canonical: isWebErrorCode,
        timeoutSetting: "web.timeoutMs",
        what: `Searching for ${JSON.stringify(request.query.length > 100 ? `${request.query.slice(0, 100)}…` : request.query)}`,
      } as const;
      return call<typeof SidecarSearchAnswerSchema, SearchAnswer, WebErrorCode>(plan, deadline, cancel);
    },

    map(request, deadline, cancel) {
      const plan = {
        path: "/v1/map",
        body: request,
        answer: SidecarMapAnswerSchema,
        timeoutCode: "CONTENT_FETCH_TIMEOUT",
        failureCode: "CONTENT_FETCH_FAILED",
        canonical: isWebErrorCode,
        host: hostOf(request.url),
        timeoutSetting: "web.timeoutMs",
        what: `Mapping ${displayUrl(request.url)}`,
      } as const;
      return call<typeof SidecarMapAnswerSchema, Result<MapAnswer, WebErrorCode>, WebErrorCode>(plan, deadline, cancel);
    },

    convertUrl(request, deadline, cancel) {
      return call<typeof SidecarConvertAnswerSchema, SidecarConvertAnswer, ConvertErrorCode>({ ...CONVERT_PLAN, path: "/v1/convert", body: request, host: hostOf(request.url), what: `Converting ${displayUrl(request.url)}` }, deadline, cancel);
    },

    convertFile(bytes, request, deadline, cancel) {
      const plan = { ...CONVERT_PLAN, path: "/v1/convert-file", body: { bytes, header: request }, what: `Converting ${request.fileName ?? request.source}` };
      return call<typeof SidecarConvertAnswerSchema, SidecarConvertAnswer, ConvertErrorCode>(plan, deadline, cancel);
    },

    async vetUrl(request, deadline) {
      try {
        const response = await fetch("/v1/vet", {
          method: "POST",
          headers,
          body: JSON.stringify({ ...request, budgetMs: Math.max(1, deadline.remainingMs()) }),
          signal: AbortSignal.timeout(Math.max(1, deadline.remainingMs()) + SIDECAR_GRACE_MS),
        }, hostOf(request.url));
        const answer = v.safeParse(SidecarVetAnswerSchema, await response.json().catch(() => null));
        if (answer.success) return answer.output;
      } catch {}
      return fail("SIDECAR_UNAVAILABLE", "The sidecar could not check the URL; check that it is running and SIDECAR_URL points at it, then retry.");
    },

    async healthy() {
      try {
        const response = await fetch("/healthz", { headers, signal: AbortSignal.timeout(3_000) });
        await response.body?.cancel();
        return response.ok;
      } catch {
        return false;
      }
    },
  };
}

const CONVERT_PLAN = {
  answer: SidecarConvertAnswerSchema,
  timeoutCode: "CONVERT_TIMEOUT",
  failureCode: "CONVERT_FAILED",
  canonical: isConvertErrorCode,
  timeoutSetting: "convert.timeoutMs",
} as const;

const hostOf = (url: string) => URL.parse(url)?.hostname;

/** Only the tool's codes reach callers; anything else becomes the tool's failure code, message kept. */
function passCanonical<A extends { ok: boolean; error?: { code: string } }>(answer: A, plan: Pick<CallPlan<v.GenericSchema, string>, "canonical" | "failureCode">): A {
  if (answer.ok || !answer.error || plan.canonical(answer.error.code)) return answer;
  return { ...answer, error: { ...answer.error, code: plan.failureCode } };
}
