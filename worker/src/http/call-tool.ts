import { deadlineFrom, type ToolName } from "@edge-web/shared";
import { loadSettings } from "../config/load-settings.ts";
import type { Settings } from "../config/resolve-settings.ts";
import type { Env } from "../env.ts";
import type { SerializedAnswer } from "../session/serialized-answer.ts";
import { logToolCall } from "../session/tool-call-log.ts";
import type { Tool } from "../tools/tool.ts";
import { answerByDeadline, deadlinePassed } from "../tools/tool-deadline.ts";
import { validate } from "./validate.ts";
import type { NeedSettings } from "../session/need-settings.ts";
import { sendSettings } from "./send-settings.ts";

/** What runs a call: a session object's stub. Given only the settings' id, it answers `needSettings` when it does not hold them. */
interface ToolRunner {
  callTool(name: ToolName, params: unknown, settings: Settings | string, receivedAt: number): Promise<SerializedAnswer | NeedSettings>;
}

/** The call's session and when its request arrived (its deadline runs from then) and was opened (epoch ms, for web.debug "trace"). */
export interface CallRequest {
  sessionId: string;
  received: number;
  opened: number;
}

/**
 * A direct tool call, from HTTP or MCP: the input checked against the tool's schema
 * (INVALID_INPUT with the fields), the settings in effect, then one round trip to the session
 * object (send-settings.ts: the settings' id, or the settings when the object may not hold them).
 * The answer comes back as JSON text, encoded once.
 * The deadline of a tool that has one runs from `receivedAt`, and its timeout is answered then even
 * when the session object has not answered yet.
 */
export async function callTool(env: Env, request: CallRequest, session: ToolRunner, tool: Tool, input: unknown): Promise<SerializedAnswer> {
  const params = validate(tool.params, input, "INVALID_INPUT");
  if (!params.ok) return params;
  const settings = await loadSettings(env);
  if (!settings.ok) return settings;
  const resolved = Date.now();
  const { received } = request;
  const answer = await withinDeadline(tool, params.value, settings.value, received, sendSettings(request.sessionId, settings.value, (held) => session.callTool(tool.name, params.value, held, received)));
  const { trace, ...untraced } = answer;
  if (trace) {
    const returned = Date.now();
    const entry = { sessionId: request.sessionId, tool: tool.name, params: params.value, answer, ms: returned - received, steps: trace.steps ?? {} };
    logToolCall("trace", { ...entry, trace: { received, opened: request.opened, settings: resolved, object: trace, returned } });
  }
  return untraced;
}

/** The call's answer, or its tool's timeout once its deadline (from when the request arrived) has passed: never later. */
function withinDeadline(tool: Tool, params: unknown, settings: Settings, receivedAt: number, call: Promise<SerializedAnswer>): Promise<SerializedAnswer> {
  if (!tool.deadline) return call;
  const { family } = tool.deadline;
  const budgetMs = tool.deadline.budgetMs(params, settings.config);
  // The object's work ends ANSWER_RESERVE_MS before this, so its own answer normally comes first.
  return answerByDeadline(call, deadlineFrom(receivedAt, budgetMs), () => deadlinePassed(family, budgetMs));
}
