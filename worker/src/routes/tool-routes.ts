import { fail, TOOL_NAMES, type ToolName } from "@edge-web/shared";
import { Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { jsonError, jsonOkText } from "../http/respond.ts";
import { readJsonBody } from "../http/read-json-body.ts";
import { callTool } from "../http/call-tool.ts";
import { openSession } from "../http/session-access.ts";
import { TOOLS } from "../tools/tool-registry.ts";

const isToolName = (name: string): name is ToolName => (TOOL_NAMES as readonly string[]).includes(name);

/** POST /api/sessions/:id/tools/:tool — the tool's params as the JSON body. */
export const toolRoutes = new Hono<AppEnv>().post("/:id/tools/:tool", async (c) => {
  // The call's deadline starts here: the time to reach the session object counts against it.
  const receivedAt = Date.now();
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
  const answer = await callTool(c.env, session.value.record.sessionId, session.value.stub, tool, body.value, receivedAt);
  return answer.ok ? jsonOkText(c, answer.json, answer.headers) : jsonError(c, answer.error, answer.headers);
});
