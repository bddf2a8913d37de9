import { McpServer, type CallToolResult, type StandardSchemaWithJSON } from "@modelcontextprotocol/server";
import { toJsonSchema } from "@valibot/to-json-schema";
import { fail, PROTOCOL_VERSION, type CodedError } from "@edge-web/shared";
import type { Principal } from "../auth/principal.ts";
import type { Env } from "../env.ts";
import { callTool } from "../http/call-tool.ts";
import type { Tool } from "../tools/tool.ts";
import { TOOL_INPUT_SCHEMAS } from "../tools/tool-input-schemas.ts";
import { TOOLS } from "../tools/tool-registry.ts";
import { callerSession } from "./caller-session.ts";
import { toolResultText } from "./tool-result-text.ts";

/**
 * A JSON Schema the SDK advertises but does not enforce: arguments are checked by the tool's own
 * valibot schema, so a bad call answers `isError` with INVALID_INPUT and the fields, as over HTTP.
 */
function advertised(json: Record<string, unknown>): StandardSchemaWithJSON {
  return {
    "~standard": {
      version: 1,
      vendor: "edge-web",
      validate: (value) => ({ value }),
      jsonSchema: { input: () => json, output: () => json },
    },
  };
}

/** Derived once per isolate: the schemas never change while it runs. */
const SCHEMAS = new Map(
  Object.values(TOOLS).map((tool) => [
    tool.name,
    {
      input: advertised(TOOL_INPUT_SCHEMAS.get(tool.name) as Record<string, unknown>),
      output: advertised(toJsonSchema(tool.output, { errorMode: "ignore" }) as Record<string, unknown>),
    },
  ]),
);

const INSTRUCTIONS =
  "Web tools: web_search finds pages, fetch_content reads pages as Markdown, convert_content reads documents (PDF, Word, spreadsheets, presentations) as Markdown, get_search_content reads an earlier answer again by its responseId. " +
  "Your calls share one session, so a responseId stays readable in later calls; each result's _meta names the session.";

function failure(error: CodedError, headers?: Record<string, string>): CallToolResult {
  const retry = headers?.["retry-after"];
  const text = `${error.code}: ${error.message}${retry ? ` (retry after ${retry} s)` : ""}`;
  return { isError: true, content: [{ type: "text", text }] };
}

const STALE = new Set(["SESSION_NOT_FOUND", "SESSION_ENDED"]);

async function runTool(env: Env, principal: Principal, tool: Tool, args: unknown): Promise<CallToolResult> {
  const receivedAt = Date.now();
  let session = await callerSession(env, principal);
  let answer = await callTool(env, session.sessionId, session.stub, tool, args ?? {}, receivedAt);
  // The caller's session ended (idle) or was deleted: the call did nothing, so it runs again in a new one.
  if (!answer.ok && STALE.has(answer.error.code)) {
    session = await callerSession(env, principal, session.sessionId);
    answer = await callTool(env, session.sessionId, session.stub, tool, args ?? {}, receivedAt);
  }
  if (!answer.ok) return failure(answer.error, answer.headers);
  const value = JSON.parse(answer.json) as Record<string, unknown>;
  return {
    content: [{ type: "text", text: toolResultText(tool.name, value) }],
    structuredContent: value,
    _meta: { sessionId: session.sessionId },
  };
}

/** A tool call whose storage or session failed unexpectedly still answers in the tools' shape; the cause is only logged. */
async function guardedRunTool(env: Env, principal: Principal, tool: Tool, args: unknown): Promise<CallToolResult> {
  try {
    return await runTool(env, principal, tool, args);
  } catch (error) {
    console.error(`mcp: ${tool.name} failed`, error instanceof Error ? error.message : String(error));
    return failure(fail("INTERNAL_ERROR", `${tool.name} failed unexpectedly; try again.`).error);
  }
}

/** The MCP server for one request: the session's tools, run in the caller's own session object. */
export function mcpServer(env: Env, principal: Principal): McpServer {
  const server = new McpServer({ name: "edge-web-tools", version: PROTOCOL_VERSION }, { instructions: INSTRUCTIONS });
  for (const tool of Object.values(TOOLS)) {
    const schemas = SCHEMAS.get(tool.name)!;
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: schemas.input,
        outputSchema: schemas.output,
        annotations: { readOnlyHint: true, openWorldHint: tool.name !== "get_search_content" },
      },
      (args: unknown) => guardedRunTool(env, principal, tool, args),
    );
  }
  return server;
}
