import { isPlainObject, type WebConfig } from "@edge-web/shared";
import type { ToolAnswer } from "../tools/tool.ts";
import type { ObjectTrace } from "./object-trace.ts";
import type { SerializedAnswer } from "./serialized-answer.ts";

/** The request's boundaries in the worker (epoch ms) around the object's. */
export interface RequestTrace {
  received: number;
  /** Auth, the session's record and the body read. */
  opened: number;
  settings: number;
  object: ObjectTrace;
  returned: number;
}

export interface ToolCallEntry {
  sessionId: string;
  tool: string;
  params: unknown;
  answer: ToolAnswer<unknown> | SerializedAnswer;
  ms: number;
  /** Milliseconds per pipeline step: the session's queue, and the sidecar's steps (`sidecar.*`). */
  steps: Record<string, number>;
  /** "trace": each boundary, in milliseconds since the worker received the request. */
  trace?: RequestTrace;
}

/** Milliseconds since the request arrived at each boundary, in order. */
function phases(trace: RequestTrace): Record<string, number> {
  const { received, object } = trace;
  const at = { opened: trace.opened, settings: trace.settings, entered: object.entered, ran: object.ran, flushed: object.flushed, returned: trace.returned };
  return Object.fromEntries(Object.entries(at).filter((e): e is [string, number] => e[1] !== undefined).map(([phase, t]) => [phase, t - received]));
}

/** How many inputs a call named (URLs or queries), never the inputs themselves: they may carry tokens. */
function inputCount(params: unknown, single: string, many: string): number | undefined {
  if (!isPlainObject(params)) return undefined;
  const list = Array.isArray(params[many]) ? params[many].length : 0;
  const one = typeof params[single] === "string" ? 1 : 0;
  return list + one > 0 ? list + one : undefined;
}

/**
 * web.debug: "minimal" writes one JSON line per tool call (tool, session, duration, outcome, how
 * many URLs or queries); "verbose" adds the milliseconds of each pipeline step; "trace" adds when
 * each boundary was passed. Never bodies, URLs, queries, keys or messages.
 */
export function logToolCall(level: WebConfig["debug"], entry: ToolCallEntry): void {
  if (level === false) return;
  const { answer } = entry;
  const urls = inputCount(entry.params, "url", "urls");
  const queries = inputCount(entry.params, "query", "queries");
  const line = {
    event: "tool_call",
    tool: entry.tool,
    sessionId: entry.sessionId,
    ms: entry.ms,
    outcome: answer.ok ? "ok" : answer.error.code,
    ...(urls !== undefined && { urls }),
    ...(queries !== undefined && { queries }),
    ...(level !== "minimal" && { steps: entry.steps }),
    ...(entry.trace && { phases: phases(entry.trace) }),
  };
  console.log(JSON.stringify(line));
}
