import type { ToolName } from "@edge-web/shared";
import { loadSettings } from "../config/load-settings.ts";
import type { Settings } from "../config/resolve-settings.ts";
import type { Env } from "../env.ts";
import type { Tool, ToolAnswer } from "../tools/tool.ts";
import { validate } from "./validate.ts";

/** What runs a call: a session object's stub. */
interface ToolRunner {
  callTool(name: ToolName, params: unknown, settings: Settings): Promise<unknown>;
}

/**
 * A direct tool call, from HTTP or MCP: the input checked against the tool's schema
 * (INVALID_INPUT with the fields), the settings in effect, then one round trip to the session object.
 */
export async function callTool(env: Env, session: ToolRunner, tool: Tool, input: unknown): Promise<ToolAnswer<unknown>> {
  const params = validate(tool.params, input, "INVALID_INPUT");
  if (!params.ok) return params;
  const settings = await loadSettings(env);
  if (!settings.ok) return settings;
  return (await session.callTool(tool.name, params.value, settings.value)) as ToolAnswer<unknown>;
}
