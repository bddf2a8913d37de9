import { PROTOCOL_VERSION, type CodedError } from "@edge-web/shared";
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { statusFor } from "./status-for.ts";

/** A JSON success body; every body carries the protocol version. */
export function jsonOk(c: Context, body: object, status: ContentfulStatusCode = 200, headers?: Record<string, string>): Response {
  return c.json({ ...body, protocolVersion: PROTOCOL_VERSION }, status, headers);
}

/** The only place an error value becomes an HTTP response. */
export function jsonError(c: Context, error: CodedError, headers?: Record<string, string>): Response {
  const body = { error, protocolVersion: PROTOCOL_VERSION };
  return c.json(body, statusFor(error) as ContentfulStatusCode, headers);
}
