import { PROTOCOL_VERSION, type CodedError } from "@edge-web/shared";
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { statusFor } from "./status-for.ts";

/** A JSON success body; every body carries the protocol version. */
export function jsonOk(c: Context, body: object, status: ContentfulStatusCode = 200, headers?: Record<string, string>): Response {
  return c.json({ ...body, protocolVersion: PROTOCOL_VERSION }, status, headers);
}

/** A JSON object's text, already encoded, as a success body (the protocol version added after its last member). */
export function jsonOkText(c: Context, json: string, headers?: Record<string, string>): Response {
  const members = json.slice(1, -1).trim();
  const body = `{${members}${members === "" ? "" : ","}"protocolVersion":${JSON.stringify(PROTOCOL_VERSION)}}`;
  return c.body(body, 200, { "content-type": "application/json", ...headers });
}

/** The only place an error value becomes an HTTP response. */
export function jsonError(c: Context, error: CodedError, headers?: Record<string, string>): Response {
  const body = { error, protocolVersion: PROTOCOL_VERSION };
  return c.json(body, statusFor(error) as ContentfulStatusCode, headers);
}
