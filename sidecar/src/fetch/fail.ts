import type { EgressFailure, EgressFailureKind } from "./egress-types.ts";

type Failed = { ok: false; failure: EgressFailure };

/** The failure half of EgressResult; assignable to EgressResult<T> for every T. */
export function fail(kind: EgressFailureKind, message: string): Failed {
  return { ok: false, failure: { kind, message } };
}

/**
 * A policy refusal. Only the origin is printed: it never carries userinfo, and paths or queries
 * may hold tokens.
 */
export function blocked(url: URL, detail: string): Failed {
  return fail(
    "blocked",
    `The URL ${url.origin} was blocked by the network policy (private or local address: ${detail}). ` +
      "Set web.allowPrivateNetwork to true or add the host to web.allowHosts to permit it.",
  );
}

/** The first line of an error's message: enough to act on, no stack. */
export function errorReason(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split("\n", 1)[0] || "unknown error";
}
