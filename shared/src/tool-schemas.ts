import * as v from "valibot";
import type { WebErrorCode } from "./error-codes.ts";

/** Input objects keep unknown fields (agents send extras); known fields must have their types. */
export const WebSearchParamsSchema = v.looseObject({
  query: v.optional(v.string()),
  queries: v.optional(v.array(v.string())),
  numResults: v.optional(v.number()),
  includeContent: v.optional(v.boolean()),
});
export type WebSearchParams = v.InferOutput<typeof WebSearchParamsSchema>;

export const FetchContentParamsSchema = v.looseObject({
  url: v.optional(v.string()),
  urls: v.optional(v.array(v.string())),
  preferReader: v.optional(v.boolean()),
});
export type FetchContentParams = v.InferOutput<typeof FetchContentParamsSchema>;

const index = v.pipe(v.number(), v.integer("must be an integer"), v.minValue(0, "must be 0 or more"));

export const GetSearchContentParamsSchema = v.looseObject({
  responseId: v.string("responseId is required: pass the responseId of a web_search or fetch_content result"),
  query: v.optional(v.string()),
  queryIndex: v.optional(index),
  url: v.optional(v.string()),
  urlIndex: v.optional(index),
});
export type GetSearchContentParams = v.InferOutput<typeof GetSearchContentParamsSchema>;

export const ExtractedContentSchema = v.object({
  url: v.string(),
  title: v.optional(v.string()),
  content: v.string(),
  truncated: v.boolean(),
  contentType: v.optional(v.string()),
  parseWarning: v.optional(v.string()),
  /** Additive to the seed's shape: page metadata when the handler finds it. */
  metadata: v.optional(v.record(v.string(), v.string())),
});
export type ExtractedContent = v.InferOutput<typeof ExtractedContentSchema>;

export const SearchResultSchema = v.object({
  title: v.string(),
  url: v.string(),
  snippet: v.optional(v.string()),
  source: v.optional(v.string()),
  content: v.optional(ExtractedContentSchema),
});
export type SearchResult = v.InferOutput<typeof SearchResultSchema>;

export const QueryResultDataSchema = v.object({ query: v.string(), results: v.array(SearchResultSchema) });
export type QueryResultData = v.InferOutput<typeof QueryResultDataSchema>;

export const WebSearchSuccessSchema = v.object({ responseId: v.string(), queries: v.array(QueryResultDataSchema) });
export type WebSearchSuccess = v.InferOutput<typeof WebSearchSuccessSchema>;

export const FetchContentSuccessSchema = v.object({ responseId: v.string(), results: v.array(ExtractedContentSchema) });
export type FetchContentSuccess = v.InferOutput<typeof FetchContentSuccessSchema>;

/** What a responseId names: the whole search or fetch answer. */
export const StoredResultSchema = v.variant("kind", [
  v.object({ kind: v.literal("search"), responseId: v.string(), queries: v.array(QueryResultDataSchema) }),
  v.object({ kind: v.literal("fetch"), responseId: v.string(), results: v.array(ExtractedContentSchema) }),
]);
export type StoredResult = v.InferOutput<typeof StoredResultSchema>;

export const GetSearchContentSuccessSchema = v.object({
  responseId: v.string(),
  result: v.union([StoredResultSchema, ExtractedContentSchema, QueryResultDataSchema]),
});
export type GetSearchContentSuccess = v.InferOutput<typeof GetSearchContentSuccessSchema>;

export interface WebToolError {
  error: { code: WebErrorCode; message: string; fields?: string[] };
}

export const TOOL_NAMES = ["web_search", "fetch_content", "get_search_content"] as const;
export type ToolName = (typeof TOOL_NAMES)[number];
