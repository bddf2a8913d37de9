import type { ErrorCode } from "@edge-web/shared";
import type * as v from "valibot";
import type { Tool } from "../tools/tool.ts";

/**
 * One operation of the HTTP API, declared once beside its handler: the router serves `method` and
 * `path` and validates with `body.schema` and `query`, and the OpenAPI document is built from the same object.
 */
export interface ApiRoute {
  method: "get" | "post" | "put" | "delete";
  /** Hono's pattern, e.g. /api/sessions/:id/stats. */
  path: string;
  tag: "sessions" | "tools" | "stream" | "agent" | "reads" | "config" | "attachments" | "service";
  summary: string;
  description?: string;
  /** False for routes anyone may call (health, signed downloads, the description itself); "admin" for those that need ADMIN_TOKEN when it is set. */
  auth?: false | "admin";
  /** Path parameters that take only these values (others are plain strings). */
  pathValues?: Record<string, readonly string[]>;
  /** The query parameters, each described (`described`); those not optional are required. */
  query?: v.ObjectSchema<v.ObjectEntries, v.ErrorMessage<v.ObjectIssue> | undefined>;
  headers?: Record<string, string>;
  /**
   * `needs`: keys of which the body must name at least one or exactly one; `onlyWith`: keys the body
   * may name only next to one of some others (both checked past the schema).
   */
  body?: { schema: v.GenericSchema; type?: "multipart/form-data"; needs?: Tool["needs"]; onlyWith?: Tool["onlyWith"] };
  /** The success answer; `schema` absent for bodies that are not JSON. */
  ok: { status: number; description: string; schema?: v.GenericSchema; type?: string };
  /** What the route may answer besides success (INTERNAL_ERROR and PROTOCOL_VERSION_MISMATCH always). */
  errors: readonly ErrorCode[];
  /** Answers outside the error envelope, by status (plain-text refusals, JSON-RPC errors). */
  otherResponses?: Record<string, { description: string; type: string }>;
}

/** A route whose handler validates its body with `schema`, typed as that schema. */
export type ApiRouteWithBody<S extends v.GenericSchema> = ApiRoute & { body: { schema: S } };

/** UNAUTHORIZED and FORBIDDEN are added by the document to every route behind auth. */
export const SESSION_ERRORS: ErrorCode[] = ["SESSION_NOT_FOUND"];
/** What reading a JSON body may answer (VALIDATION_FAILED added where a schema checks it). */
export const READ_ERRORS: ErrorCode[] = ["INVALID_JSON", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE"];
export const BODY_ERRORS: ErrorCode[] = [...READ_ERRORS, "VALIDATION_FAILED"];
