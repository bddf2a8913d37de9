import { fail, TOOL_NAMES, type Result, type ToolName } from "@edge-web/shared";
import { Hono } from "hono";
import { loadWebConfig } from "../config/load-web-config.ts";
import type { Env } from "../env.ts";
import { jsonError, jsonOk } from "../http/respond.ts";
import { readJsonBody } from "../http/read-json-body.ts";
import { validate } from "../http/validate.ts";
import { sessionStub } from "../session/session-stub.ts";
import { TOOLS } from "../tools/tool-registry.ts";

const isToolName = (name: string): name is ToolName => (TOOL_NAMES as readonly string[]).includes(name);

/** POST /api/sessions/:id/tools/:tool — the tool's params as the JSON body. */
export const toolRoutes = new Hono<{ Bindings: Env }>().post("/:id/tools/:tool", async (c) => {
  const name = c.req.param("tool");
  const tool = isToolName(name) ? TOOLS[name] : undefined;
  if (!tool) {
    const available = Object.keys(TOOLS).join(", ");
    return jsonError(c, fail("ROUTE_NOT_FOUND", `Unknown tool "${name}"; available: ${available}.`).error);
  }
  const stub = sessionStub(c.env, c.req.param("id"));
  if (!stub) return jsonError(c, fail("SESSION_NOT_FOUND", "Session not found; create one with POST /api/sessions.").error);

  const body = await readJsonBody(c, "INVALID_INPUT");
  if (!body.ok) return jsonError(c, body.error);
  const params = validate(tool.params, body.value, "INVALID_INPUT");
  if (!params.ok) return jsonError(c, params.error);
  const config = loadWebConfig(c.env);
  if (!config.ok) return jsonError(c, config.error);

  const result = (await stub.callTool(tool.name, params.value, config.value)) as Result<unknown>;
  return result.ok ? jsonOk(c, result.value as object) : jsonError(c, result.error);
});
