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
}

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

/** A failure as it travels between processes (codes are checked by whoever maps them). */
export const FailureSchema = v.object({
  ok: v.literal(false),
  error: v.object({ code: v.string(), message: v.string(), fields: v.optional(v.array(v.string())) }),
});
