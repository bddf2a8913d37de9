import * as v from "valibot";
import type { ErrorCode } from "./error-codes.ts";

/**
 * An expected failure: a stable code and a message that tells the caller what to do. `C` narrows
 * the codes where a module has a vocabulary of its own (egress failure kinds, limiter outcomes).
 */
export interface CodedError<C extends string = ErrorCode> {
  code: C;
  message: string;
  /** Field paths, for input validation failures. */
  fields?: string[];
  /** Whose fault it is, where the code alone does not say (the HTTP edge answers the status from it). */
  details?: FailureDetails;
}

/**
 * Faults a code such as CONTENT_FETCH_FAILED covers, told apart so the HTTP status can follow them:
 * the network policy refused the URL (403), the site's robots.txt disallows it (403), the origin has
 * no such resource (404, 410), the content is of a type the tool does not read (415) or a document it
 * cannot read (422), the caller sent more than its session runs at once (429), the origin or provider
 * failed (502), the site answered a bot check or block page instead of the page (502: an upstream
 * refusal), or this service has no capacity or configuration for it now (503). "blocked" and
 * "robots" answers are never cached or stored as content.
 */
export const FAULTS = ["policy", "robots", "not-found", "unsupported-type", "unreadable", "too-many-requests", "upstream", "blocked", "unavailable"] as const;
export type Fault = (typeof FAULTS)[number];

export interface FailureDetails {
  fault: Fault;
  /** The HTTP status the origin or provider answered, when it answered one. */
  upstreamStatus?: number;
}

export const FailureDetailsSchema = v.object({
  fault: v.picklist(FAULTS),
  upstreamStatus: v.optional(v.pipe(v.number(), v.integer(), v.minValue(100), v.maxValue(599))),
});

/** The one failure shape of the whole project: tools, config, routes and the sidecar protocol. */
export interface Failure<C extends string = ErrorCode> {
  ok: false;
  error: CodedError<C>;
}

export type Result<T, C extends string = ErrorCode> = { ok: true; value: T } | Failure<C>;

export const ok = <T>(value: T): { ok: true; value: T } => ({ ok: true, value });

/** A successful value under one key of an answer object (`{ state: … }`); a failure as it is. */
export function keyed<T>(key: string, result: Result<T>): Result<Record<string, T>> {
  return result.ok ? ok({ [key]: result.value }) : result;
}

export function fail<C extends string = ErrorCode>(code: C, message: string, fields?: readonly string[]): Failure<C> {
  return { ok: false, error: fields && fields.length > 0 ? { code, message, fields: [...fields] } : { code, message } };
}

/** A failure whose fault is known (see FAULTS); the upstream's status rides along when there was one. */
export function failWith<C extends string = ErrorCode>(code: C, message: string, details: FailureDetails): Failure<C> {
  return { ok: false, error: { code, message, details } };
}

/** A failure as it travels between processes (codes are checked by whoever maps them). */
export const FailureSchema = v.object({
  ok: v.literal(false),
  error: v.object({ code: v.string(), message: v.string(), fields: v.optional(v.array(v.string())), details: v.optional(FailureDetailsSchema) }),
});
