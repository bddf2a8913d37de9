import { fail, isWebErrorCode, type UiMessageChunk } from "@edge-web/shared";
import type { Tool, ToolAnswer, ToolContext } from "../tools/tool.ts";
import type { ToolUiMessage } from "./message-log.ts";

/** Where a tool call's progress goes: the session's stream and its message history. */
export interface ToolCallSink {
  emit(chunk: UiMessageChunk): void;
  saveMessage(message: ToolUiMessage): void;
}

/**
 * Runs one tool call as the AI SDK sees one: `start`, `tool-input-available`, then
 * `tool-output-available` or `tool-output-error`, then `finish` — whatever the tool does, a tool
 * that throws included. The history keeps the tool part in its latest state; the counters record
 * calls, results and errors by code.
 */
export async function runToolCall(tool: Tool, params: unknown, ctx: ToolContext, sink: ToolCallSink, newId: () => string): Promise<ToolAnswer<unknown>> {
  const messageId = `msg_${newId()}`;
  const toolCallId = `call_${newId()}`;
  const createdAt = Date.now();
  const part = { type: `tool-${tool.name}` as const, toolCallId, input: params };

  sink.emit({ type: "start", messageId });
  sink.emit({ type: "tool-input-available", toolCallId, toolName: tool.name, input: params });
  sink.saveMessage({ id: messageId, role: "assistant", parts: [{ ...part, state: "input-available" }], metadata: { createdAt } });
  ctx.record.count("toolCalls");
  ctx.record.count(`tool.${tool.name}`);

  let answer: ToolAnswer<unknown> = fail("INTERNAL_ERROR", `${tool.name} failed unexpectedly; try again.`);
  try {
    answer = await tool.run(params, ctx);
  } catch (error) {
    console.error(`${tool.name} threw`, error instanceof Error ? error.message : String(error));
  } finally {
    ctx.record.count("toolResults");
    if (answer.ok) {
      sink.emit({ type: "tool-output-available", toolCallId, output: answer.value });
      sink.saveMessage({ id: messageId, role: "assistant", parts: [{ ...part, state: "output-available", output: answer.value }], metadata: { createdAt } });
    } else {
      const { code, message } = answer.error;
      ctx.record.count(`errors.${isWebErrorCode(code) ? code : "INTERNAL_ERROR"}`);
      const errorText = `${code}: ${message}`;
      sink.emit({ type: "tool-output-error", toolCallId, errorText });
      sink.saveMessage({ id: messageId, role: "assistant", parts: [{ ...part, state: "output-error", errorText }], metadata: { createdAt } });
    }
    sink.emit({ type: "finish" });
  }
  return answer;
}
