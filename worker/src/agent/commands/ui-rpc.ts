import type { ErrorCode, StoredResult, UiRpcRequest, UiRpcResponse } from "@edge-web/shared";
import * as v from "valibot";
import { matchingResults, type ResultLabel } from "./matching-results.ts";

export interface UiRpcSources {
  results(): ResultLabel[];
  result(responseId: string): StoredResult | undefined;
  stats(): unknown;
}

type Answer = { ok: true; result: unknown } | { ok: false; error: { code: ErrorCode; message: string } };
type Handler = (payload: unknown, sources: UiRpcSources) => Answer;

const refuse = (code: ErrorCode, message: string): Answer => ({ ok: false, error: { code, message } });

const MentionPayloadSchema = v.optional(v.looseObject({ q: v.optional(v.string()), query: v.optional(v.string()) }));
const MethodCallSchema = v.looseObject({ method: v.string(), params: v.optional(v.unknown()) });
const ResultParamsSchema = v.looseObject({ responseId: v.string() });

/** The methods of the `custom` point's `execute` (`{ method, params? }`), and what each answers. */
const METHODS: Record<string, Handler> = {
  "results.list": (_params, sources) => ({ ok: true, result: { results: sources.results() } }),
  "results.get": (params, sources) => {
    const parsed = v.safeParse(ResultParamsSchema, params);
    if (!parsed.success) return refuse("VALIDATION_FAILED", "results.get needs params { responseId: string }.");
    const stored = sources.result(parsed.output.responseId);
    return stored ? { ok: true, result: stored } : refuse("NOT_FOUND", `No stored result has responseId "${parsed.output.responseId}" in this session.`);
  },
  "session.stats": (_params, sources) => ({ ok: true, result: sources.stats() }),
};

/** The stored results an @ mention may name, as pi-web's mention items (`{ id, label }`), filtered by `q` (or `query`). */
const mentions: Handler = (payload, sources) => {
  const parsed = v.safeParse(MentionPayloadSchema, payload);
  if (!parsed.success) return refuse("VALIDATION_FAILED", "A mention's payload is { q?: string }.");
  const query = parsed.output?.q ?? parsed.output?.query ?? "";
  return { ok: true, result: matchingResults(sources.results(), query).map((r) => ({ id: r.responseId, label: r.label, kind: r.kind })) };
};

const execute: Handler = (payload, sources) => {
  const call = v.safeParse(MethodCallSchema, payload);
  const method = call.success ? METHODS[call.output.method] : undefined;
  if (!call.success || !method) return refuse("VALIDATION_FAILED", `custom execute takes { method, params? }; the methods are ${Object.keys(METHODS).join(", ")}.`);
  return method(call.output.params, sources);
};

/** The points and actions this service answers; pi-web's others belong to agents' own web extensions. */
const SERVED: Partial<Record<UiRpcRequest["point"], Partial<Record<UiRpcRequest["action"], Handler>>>> = {
  mention: { list: mentions, resolve: mentions },
  custom: { execute },
};

/** The answer to a UI's request, paired with it by correlationId; one this service does not serve is `ok: false` saying what it does. */
export function answerUiRpc(request: UiRpcRequest, sources: UiRpcSources): UiRpcResponse {
  const handler = SERVED[request.point]?.[request.action];
  const answer = handler
    ? handler(request.payload, sources)
    : refuse("VALIDATION_FAILED", `This service does not serve ${request.point} ${request.action}; it serves mention list and resolve ({ q? }), and custom execute ({ method, params? }).`);
  return { correlationId: request.correlationId, ...answer };
}
