import type { StoredResult, UiRpcRequest, UiRpcResponse } from "@edge-web/shared";
import type { ResultSummary } from "./completion.ts";

export interface UiRpcSources {
  results(): ResultSummary[];
  result(responseId: string): StoredResult | undefined;
  stats(): unknown;
}

/** The methods a UI may call over POST /ui-rpc, and what each answers. */
const METHODS: Record<string, (params: unknown, sources: UiRpcSources) => { ok: true; result: unknown } | { ok: false; error: string }> = {
  "results.list": (_params, sources) => ({ ok: true, result: { results: sources.results() } }),
  "results.get": (params, sources) => {
    const responseId = typeof params === "object" && params !== null ? (params as { responseId?: unknown }).responseId : undefined;
    if (typeof responseId !== "string") return { ok: false, error: "results.get needs params { responseId: string }." };
    const stored = sources.result(responseId);
    return stored ? { ok: true, result: stored } : { ok: false, error: `No stored result has responseId "${responseId}" in this session.` };
  },
  "session.stats": (_params, sources) => ({ ok: true, result: sources.stats() }),
};

/** The answer to a UI's request, paired with it by correlationId; an unknown method is `ok: false` saying which exist. */
export function answerUiRpc(request: UiRpcRequest, sources: UiRpcSources): UiRpcResponse {
  const method = METHODS[request.method];
  const answer = method ? method(request.params, sources) : { ok: false as const, error: `Unknown method "${request.method}"; the methods are ${Object.keys(METHODS).join(", ")}.` };
  return { correlationId: request.correlationId, ...answer };
}
