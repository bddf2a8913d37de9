import { McpServer, type CallToolResult } from "@modelcontextprotocol/server";
import { toJsonSchema } from "@valibot/to-json-schema";
import { fail, PROTOCOL_VERSION } from "@edge-web/shared";
import type { Principal } from "../auth/principal.ts";
import type { Env } from "../env.ts";
import { callTool } from "../http/call-tool.ts";
import type { Tool } from "../tools/tool.ts";
import { TOOL_INPUT_SCHEMAS } from "../tools/tool-input-schemas.ts";
import { TOOLS } from "../tools/tool-registry.ts";
import { advertised } from "./advertised.ts";
import { toolFailure } from "./tool-failure.ts";
import { callerSession } from "./caller-session.ts";
import { registerCrawlTools } from "./crawl-tools.ts";
import { toolResultText } from "./tool-result-text.ts";


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
  "Web tools: web_search finds pages, fetch_content reads pages as Markdown, convert_content reads documents (PDF, Word, spreadsheets, presentations) as Markdown, get_search_content reads an earlier answer again by its responseId; map lists a site's URLs, crawl reads many pages of a site (crawl_status reads on). " +
  "Your calls share one session, so a responseId stays readable in later calls; each result's _meta names the session.";

const STALE = new Set(["SESSION_NOT_FOUND", "SESSION_ENDED"]);

async function runTool(env: Env, principal: Principal, tool: Tool, args: unknown): Promise<CallToolResult> {
  const received = Date.now();
  let session = await callerSession(env, principal);
  let answer = await callTool(env, { sessionId: session.sessionId, received, opened: Date.now() }, session.stub, tool, args ?? {});
  // The caller's session ended (idle) or was deleted: the call did nothing, so it runs again in a new one.
  if (!answer.ok && STALE.has(answer.error.code)) {
    session = await callerSession(env, principal, session.sessionId);
    answer = await callTool(env, { sessionId: session.sessionId, received, opened: Date.now() }, session.stub, tool, args ?? {});
  }
  if (!answer.ok) return toolFailure(answer.error, answer.headers);
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
    return toolFailure(fail("INTERNAL_ERROR", `${tool.name} failed unexpectedly; try again.`).error);
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
  registerCrawlTools(server, env, principal);
  return server;
}
