import type { ToolName } from "@edge-web/shared";
import { loadSettings } from "../config/load-settings.ts";
import type { Settings } from "../config/resolve-settings.ts";
import type { Env } from "../env.ts";
import type { SerializedAnswer } from "../session/serialized-answer.ts";
import { logToolCall } from "../session/tool-call-log.ts";
import type { Tool } from "../tools/tool.ts";
import { validate } from "./validate.ts";

/** What runs a call: a session object's stub. Given only the settings' id, it answers `needSettings` when it does not hold them. */
interface ToolRunner {
  callTool(name: ToolName, params: unknown, settings: Settings | string): Promise<unknown>;
}

/** The call's session and when its request arrived and was opened (epoch ms), for web.debug "trace". */
export interface CallRequest {
  sessionId: string;
  received: number;
  opened: number;
}

/** The settings id each session object was last sent by this isolate (a bounded memory; forgetting costs one fuller call). */
const sent = new Map<string, string>();
const SENT_CAPACITY = 10_000;

/**
 * A direct tool call, from HTTP or MCP: the input checked against the tool's schema
 * (INVALID_INPUT with the fields), the settings in effect, then one round trip to the session
 * object — carrying the settings only when the object may not hold them already (one more when
 * it has lost them, e.g. after a restart). The answer comes back as JSON text, encoded once.
 */
export async function callTool(env: Env, request: CallRequest, session: ToolRunner, tool: Tool, input: unknown): Promise<SerializedAnswer> {
  const params = validate(tool.params, input, "INVALID_INPUT");
  if (!params.ok) return params;
  const settings = await loadSettings(env);
  if (!settings.ok) return settings;
  const resolved = Date.now();
  const answer = await runInObject(request.sessionId, session, tool.name, params.value, settings.value);
  const { trace, ...untraced } = answer;
  if (trace) {
    const { received, opened } = request;
    const entry = { sessionId: request.sessionId, tool: tool.name, params: params.value, answer, ms: Date.now() - received, steps: trace.steps ?? {} };
    logToolCall("trace", { ...entry, trace: { received, opened, settings: resolved, object: trace, returned: Date.now() } });
  }
  return untraced;
}

async function runInObject(sessionId: string, session: ToolRunner, name: ToolName, params: unknown, settings: Settings): Promise<SerializedAnswer> {
  if (sent.get(sessionId) === settings.id) {
    const answer = (await session.callTool(name, params, settings.id)) as SerializedAnswer | { needSettings: true };
    if (!("needSettings" in answer)) return answer;
  }
  const answer = (await session.callTool(name, params, settings)) as SerializedAnswer;
  sent.delete(sessionId);
  sent.set(sessionId, settings.id);
  if (sent.size > SENT_CAPACITY) sent.delete(sent.keys().next().value!);
  return answer;
}
