import type { UiMessageChunk } from "@edge-web/shared";
import { executeTool } from "../tools/execute-tool.ts";
import type { Tool, ToolAnswer, ToolContext } from "../tools/tool.ts";
import type { ToolUiMessage } from "@edge-web/shared";

/** Where a tool call's progress goes: the session's stream and its message history. */
export interface ToolCallSink {
  emit(chunk: UiMessageChunk): void;
  saveMessage(message: ToolUiMessage): void;
}

/**
 * Runs one direct tool call as the AI SDK sees one: `start`, `tool-input-available`, then
 * `tool-output-available` or `tool-output-error`, then `finish` — whatever the tool does, a tool
 * that throws included. The history keeps the tool part in its latest state.
 */
export async function runToolCall(tool: Tool, params: unknown, ctx: ToolContext, sink: ToolCallSink, newId: () => string): Promise<ToolAnswer<unknown>> {
  const messageId = `msg_${newId()}`;
  const toolCallId = `call_${newId()}`;
  const createdAt = Date.now();
  const part = { type: `tool-${tool.name}` as const, toolCallId, input: params };

  sink.emit({ type: "start", messageId });
  sink.emit({ type: "tool-input-available", toolCallId, toolName: tool.name, input: params });
  sink.saveMessage({ id: messageId, role: "assistant", parts: [{ ...part, state: "input-available" }], metadata: { createdAt } });
  const answer = await executeTool(tool, params, ctx);
  if (answer.ok) {
    sink.emit({ type: "tool-output-available", toolCallId, output: answer.value });
    sink.saveMessage({ id: messageId, role: "assistant", parts: [{ ...part, state: "output-available", output: answer.value }], metadata: { createdAt } });
  } else {
    const errorText = `${answer.error.code}: ${answer.error.message}`;
    sink.emit({ type: "tool-output-error", toolCallId, errorText });
    sink.saveMessage({ id: messageId, role: "assistant", parts: [{ ...part, state: "output-error", errorText }], metadata: { createdAt } });
  }
  sink.emit({ type: "finish" });
  return answer;
}
