import type { OutputSink } from "../agent/turn/output-sink.ts";
import { executeTool } from "../tools/execute-tool.ts";
import type { Tool, ToolAnswer, ToolContext } from "../tools/tool.ts";

/**
 * Runs one direct tool call as the AI SDK sees one: `start`, `tool-input-available`, then
 * `tool-output-available` or `tool-output-error`, then `finish` — whatever the tool does, a tool
 * that throws included. The history keeps the tool part in its latest state.
 */
export async function runToolCall(tool: Tool, params: unknown, ctx: ToolContext, sink: Pick<OutputSink, "chunk" | "message">, newId: () => string): Promise<ToolAnswer<unknown>> {
  const messageId = `msg_${newId()}`;
  const toolCallId = `call_${newId()}`;
  const createdAt = Date.now();
  const part = { type: `tool-${tool.name}` as const, toolCallId, input: params };

  sink.chunk({ type: "start", messageId });
  sink.chunk({ type: "tool-input-available", toolCallId, toolName: tool.name, input: params });
  sink.message({ id: messageId, role: "assistant", parts: [{ ...part, state: "input-available" }], metadata: { createdAt } });
  const answer = await executeTool(tool, params, ctx);
  if (answer.ok) {
    sink.chunk({ type: "tool-output-available", toolCallId, output: answer.value });
    sink.message({ id: messageId, role: "assistant", parts: [{ ...part, state: "output-available", output: answer.value }], metadata: { createdAt } });
  } else {
    const errorText = `${answer.error.code}: ${answer.error.message}`;
    sink.chunk({ type: "tool-output-error", toolCallId, errorText });
    sink.message({ id: messageId, role: "assistant", parts: [{ ...part, state: "output-error", errorText }], metadata: { createdAt } });
  }
  sink.chunk({ type: "finish" });
  return answer;
}
