import type { CallToolResult } from "@modelcontextprotocol/server";
import type { CodedError } from "@edge-web/shared";

/** A failed call as MCP answers it: `isError`, the code and message, and when to retry if the answer said. */
export function toolFailure(error: CodedError, headers?: Record<string, string>): CallToolResult {
  const retry = headers?.["retry-after"];
  const text = `${error.code}: ${error.message}${retry ? ` (retry after ${retry} s)` : ""}`;
  return { isError: true, content: [{ type: "text", text }] };
}
