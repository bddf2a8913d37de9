import { isPlainObject, type WebConfig } from "@edge-web/shared";
import type { ToolAnswer } from "../tools/tool.ts";

export interface ToolCallEntry {
  sessionId: string;
  tool: string;
  params: unknown;
  answer: ToolAnswer<unknown>;
  ms: number;
  /** Milliseconds per pipeline step: the session's queue, and the sidecar's steps (`sidecar.*`). */
  steps: Record<string, number>;
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
 * many URLs or queries); "verbose" adds the milliseconds of each pipeline step. Never bodies,
 * URLs, queries, keys or messages.
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
    ...(level === "verbose" && { steps: entry.steps }),
  };
  console.log(JSON.stringify(line));
}
