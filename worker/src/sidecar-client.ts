import {
  ExtractedContentSchema,
  fail,
  isWebErrorCode,
  ok,
  type ExtractedContent,
  type FetchOptions,
  type Result,
} from "@edge-web/shared";
import * as v from "valibot";
import type { Env } from "./env.ts";

const SidecarAnswerSchema = v.union([
  v.object({ ok: v.literal(true), value: ExtractedContentSchema }),
  v.object({
    ok: v.literal(false),
    error: v.object({ code: v.string(), message: v.string() }),
  }),
]);

export interface SidecarClient {
  fetchContent(url: string, preferReader: boolean, options: FetchOptions, signal?: AbortSignal): Promise<Result<ExtractedContent>>;
  healthy(): Promise<boolean>;
}

/** Extra time the worker allows beyond the sidecar's own deadlines before giving up on it. */
const GRACE_MS = 5_000;

/** Talks to the sidecar over HTTP with its bearer token; the token never appears in errors. */
export function createSidecarClient(env: Pick<Env, "SIDECAR_URL" | "SIDECAR_TOKEN">): SidecarClient {
  const base = env.SIDECAR_URL.replace(/\/+$/, "");
  const headers = { authorization: `Bearer ${env.SIDECAR_TOKEN ?? ""}`, "content-type": "application/json" };

  return {
    async fetchContent(url, preferReader, options, signal) {
      const budget = options.timeoutMs + (options.enableJinaFallback ? options.jinaTimeoutMs : 0) + GRACE_MS;
      const deadline = AbortSignal.timeout(budget);
      let response: Response;
      try {
        response = await fetch(`${base}/v1/fetch`, {
          method: "POST",
          headers,
          body: JSON.stringify({ url, preferReader, options }),
          signal: signal ? AbortSignal.any([signal, deadline]) : deadline,
        });
      } catch {
        if (deadline.aborted) return fail("CONTENT_FETCH_TIMEOUT", `Fetching ${url} took longer than ${budget} ms; try again or raise web.timeoutMs.`);
        if (signal?.aborted) return fail("CONTENT_FETCH_FAILED", `Fetching ${url} was cancelled.`);
        return fail("CONTENT_FETCH_FAILED", "The fetch service (sidecar) is unreachable; check that it is running and SIDECAR_URL points at it.");
      }
      if (response.status === 401) {
        return fail("CONTENT_FETCH_FAILED", "The fetch service (sidecar) refused the worker's token; set the same SIDECAR_TOKEN on both.");
      }
      const answer = v.safeParse(SidecarAnswerSchema, await response.json().catch(() => null));
      if (!answer.success) {
        return fail("CONTENT_FETCH_FAILED", `The fetch service (sidecar) gave an unexpected answer (HTTP ${response.status}).`);
      }
      if (answer.output.ok) return ok(answer.output.value);
      const { code, message } = answer.output.error;
      return fail(isWebErrorCode(code) ? code : "CONTENT_FETCH_FAILED", message);
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
