import * as v from "valibot";
import type { ConvertErrorCode } from "./error-codes.ts";
import { FailureSchema, type Failure } from "./result.ts";
import type { RobotsEntry } from "./robots-record.ts";
import { BudgetSchema, FetchOptionsSchema, RobotsGivenSchema, RobotsReadSchema } from "./sidecar-protocol.ts";
import { ConvertedDocumentSchema, type ConvertedDocument } from "./tool-schemas.ts";
import { WebConfigSchema, type WebConfig } from "./web-config.ts";

/** The caps of one conversion (web.convert, with the call's own maxContentChars), its page selection and what to include. */
export const ConvertLimitsSchema = v.object({
  ...WebConfigSchema.entries.convert.wrapped.entries,
  pages: v.optional(v.string()),
  images: v.optional(v.picklist(["names", "inline"])),
  comments: v.optional(v.boolean()),
});
export type ConvertLimits = v.InferOutput<typeof ConvertLimitsSchema>;

/** POST /v1/convert: a document at a URL, fetched through the whole fetch pipeline. */
export const SidecarConvertUrlRequestSchema = v.object({
  url: v.string(),
  options: v.optional(FetchOptionsSchema, {}),
  limits: ConvertLimitsSchema,
  budgetMs: BudgetSchema,
  /** The worker's record of the URL's origin's robots.txt (as for /v1/fetch). */
  robotsRecord: RobotsGivenSchema,
});
export type SidecarConvertUrlRequest = v.InferInput<typeof SidecarConvertUrlRequestSchema>;

/** POST /v1/convert-file: the document's bytes are the body; this rides in the X-Convert-Request header as JSON. */
export const SidecarConvertFileRequestSchema = v.object({
  source: v.string(),
  fileName: v.optional(v.string()),
  contentType: v.optional(v.string()),
  limits: ConvertLimitsSchema,
  budgetMs: BudgetSchema,
});
export type SidecarConvertFileRequest = v.InferInput<typeof SidecarConvertFileRequestSchema>;
export const CONVERT_REQUEST_HEADER = "x-convert-request";

/** The body of every 200 answer from the convert routes: the document and the bytes read for it, or a failure; by URL, with the robots.txt records read for it (as for /v1/fetch). */
export const SidecarConvertAnswerSchema = v.union([
  v.object({ ok: v.literal(true), value: ConvertedDocumentSchema, bytes: v.number(), robotsRead: RobotsReadSchema }),
  v.object({ ...FailureSchema.entries, robotsRead: RobotsReadSchema }),
]);
/** What the convert routes answer, and the worker's client passes on: a failure is always in convert_content's codes. */
export type SidecarConvertAnswer = ({ ok: true; value: ConvertedDocument; bytes: number } | Failure<ConvertErrorCode>) & { robotsRead?: RobotsEntry[] };

/** What a convert_content call asks for beyond the configured limits. */
export type ConvertCallOptions = Pick<ConvertLimits, "pages" | "images" | "comments"> & { maxContentChars?: number | undefined };

/** The limits a call converts with: the configured ones, its own maxContentChars (capped by them), pages, images and comments. */
export function convertLimitsFrom(config: WebConfig, call: ConvertCallOptions): ConvertLimits {
  const { pages, images, comments } = call;
  return {
    ...config.convert,
    maxContentChars: Math.min(call.maxContentChars ?? config.convert.maxContentChars, config.convert.maxContentChars),
    ...(pages !== undefined && { pages }),
    ...(images !== undefined && { images }),
    ...(comments !== undefined && { comments }),
  };
}
