import { deadlineFrom, type ToolName } from "@edge-web/shared";
import { loadSettings } from "../config/load-settings.ts";
import type { Settings } from "../config/resolve-settings.ts";
import type { Env } from "../env.ts";
import type { SerializedAnswer } from "../session/serialized-answer.ts";
import type { Tool } from "../tools/tool.ts";
import { answerByDeadline, deadlinePassed } from "../tools/tool-deadline.ts";
import { validate } from "./validate.ts";

/** What runs a call: a session object's stub. Given only the settings' id, it answers `needSettings` when it does not hold them. */
interface ToolRunner {
  callTool(name: ToolName, params: unknown, settings: Settings | string, receivedAt: number): Promise<unknown>;
}

/** The settings id each session object was last sent by this isolate (a bounded memory; forgetting costs one fuller call). */
const sent = new Map<string, string>();
const SENT_CAPACITY = 10_000;

/**
 * How long past a call's deadline the worker waits for the session object's own answer (its timeout,
 * with its frames) before answering the timeout itself.
 */
const ANSWER_GRACE_MS = 250;

/**
 * A direct tool call, from HTTP or MCP: the input checked against the tool's schema
 * (INVALID_INPUT with the fields), the settings in effect, then one round trip to the session
 * object — carrying the settings only when the object may not hold them already (one more when
 * it has lost them, e.g. after a restart). The answer comes back as JSON text, encoded once.
 * The deadline of a tool that has one runs from `receivedAt`, and its timeout is answered then even
 * when the session object has not answered yet.
 */
export async function callTool(env: Env, sessionId: string, session: ToolRunner, tool: Tool, input: unknown, receivedAt = Date.now()): Promise<SerializedAnswer> {
  const params = validate(tool.params, input, "INVALID_INPUT");
  if (!params.ok) return params;
  const settings = await loadSettings(env);
  if (!settings.ok) return settings;
  const call = send(sessionId, session, tool.name, params.value, settings.value, receivedAt);
  if (!tool.deadline) return call;
  const { family } = tool.deadline;
  const budgetMs = tool.deadline.budgetMs(params.value, settings.value.config);
  return answerByDeadline(call, deadlineFrom(receivedAt, budgetMs + ANSWER_GRACE_MS), () => deadlinePassed(family, budgetMs));
}

async function send(sessionId: string, session: ToolRunner, name: ToolName, params: unknown, settings: Settings, receivedAt: number): Promise<SerializedAnswer> {
  const { id } = settings;
  if (sent.get(sessionId) === id) {
    const answer = (await session.callTool(name, params, id, receivedAt)) as SerializedAnswer | { needSettings: true };
    if (!("needSettings" in answer)) return answer;
  }
  const answer = (await session.callTool(name, params, settings, receivedAt)) as SerializedAnswer;
  sent.delete(sessionId);
  sent.set(sessionId, id);
  if (sent.size > SENT_CAPACITY) sent.delete(sent.keys().next().value!);
  return answer;
}
