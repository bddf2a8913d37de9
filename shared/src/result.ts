import type { ErrorCode } from "./error-codes.ts";

/** An expected failure: a stable code and a message that tells the caller what to do. */
export interface CodedError {
  code: ErrorCode;
  message: string;
  /** Field paths, for input validation failures. */
  fields?: string[];
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: CodedError };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });

export const fail = (code: ErrorCode, message: string, fields?: string[]): { ok: false; error: CodedError } => ({
  ok: false,
  error: fields && fields.length > 0 ? { code, message, fields } : { code, message },
});
