import { fail, TOOL_NAMES, type ErrorCode, type ToolName } from "@edge-web/shared";
import { Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { jsonError, jsonOkText } from "../http/respond.ts";
import { readJsonBody } from "../http/read-json-body.ts";
import { callTool } from "../http/call-tool.ts";
import { openSession } from "../http/session-access.ts";
import { TOOLS } from "../tools/tool-registry.ts";
import { SESSION_ERRORS, type ApiRoute } from "./api-route.ts";

const isToolName = (name: string): name is ToolName => (TOOL_NAMES as readonly string[]).includes(name);

const TOOL_ERRORS: Record<ToolName, ErrorCode[]> = {
  web_search: ["WEB_SEARCH_FAILED", "WEB_SEARCH_TIMEOUT", "WEB_SEARCH_INVALID_QUERY", "PROVIDER_RATE_LIMITED", "PROVIDER_UNAVAILABLE", "PROVIDER_AUTH_FAILED", "NETWORK_ERROR", "CONTENT_FETCH_FAILED", "CONTENT_FETCH_TIMEOUT"],
  fetch_content: ["CONTENT_FETCH_FAILED", "CONTENT_FETCH_TIMEOUT", "CONTENT_FETCH_INVALID_URL", "NETWORK_ERROR"],
  get_search_content: ["NOT_FOUND"],
  convert_content: ["FILE_NOT_FOUND", "FILE_TOO_LARGE", "UNSUPPORTED_PROTOCOL", "CONVERT_TIMEOUT", "CONVERT_FAILED", "NETWORK_ERROR", "PRIVATE_NETWORK_BLOCKED"],
};

/** One route a tool, its body the tool's params: the very schema callTool validates with. */
export const TOOL_ROUTES: ApiRoute[] = Object.values(TOOLS).map((tool) => ({
  method: "post",
  path: `/api/sessions/:id/tools/${tool.name}`,
  tag: "tools",
  summary: tool.title,
  description: tool.description,
  body: { schema: tool.params, ...(tool.needs && { needs: tool.needs }), ...(tool.onlyWith && { onlyWith: tool.onlyWith }) },
  ok: { status: 200, description: "The tool's answer; its `responseId` reads it again with get_search_content.", schema: tool.output },
  errors: [...SESSION_ERRORS, "SESSION_ENDED", "INVALID_INPUT", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE", ...TOOL_ERRORS[tool.name]],
}));

/** POST /api/sessions/:id/tools/:tool — the tool's params as the JSON body (one pattern serves TOOL_ROUTES). */
export const toolRoutes = new Hono<AppEnv>().post("/api/sessions/:id/tools/:tool", async (c) => {
  const name = c.req.param("tool");
  const tool = isToolName(name) ? TOOLS[name] : undefined;
  if (!tool) {
    const available = Object.keys(TOOLS).join(", ");
    return jsonError(c, fail("ROUTE_NOT_FOUND", `Unknown tool "${name}"; available: ${available}.`).error);
  }
  // The session object itself refuses ended and deleted sessions, so a record this isolate has seen is enough here.
  const session = await openSession(c, c.req.param("id"), { active: false });
  if (!session.ok) return jsonError(c, session.error);

  const body = await readJsonBody(c, "INVALID_INPUT");
  if (!body.ok) return jsonError(c, body.error);
  const request = { sessionId: session.value.record.sessionId, received: c.var.received, opened: Date.now() };
  const answer = await callTool(c.env, request, session.value.stub, tool, body.value);
  return answer.ok ? jsonOkText(c, answer.json, answer.headers) : jsonError(c, answer.error, answer.headers);
});
