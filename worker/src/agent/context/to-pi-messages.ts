import type { AgentMessage, AssistantAgentMessage, CompactionData, SessionMessage, ToolResultAgentMessage, UserAgentMessage } from "@edge-web/shared";
import { attachmentIdOf, steersOf } from "./to-model-messages.ts";

type Part = SessionMessage["parts"][number];

/** The history keeps no usage per message (GET /stats counts it per session). */
const NO_USAGE: AssistantAgentMessage["usage"] = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
/** A compaction's part; `data-compaction` in histories written before pi-web's name. */
const COMPACTION_PARTS = new Set(["data-pi-compaction", "data-compaction"]);

const timestampOf = (message: SessionMessage) => {
  const createdAt = (message.metadata as { createdAt?: unknown } | undefined)?.createdAt;
  return typeof createdAt === "number" ? createdAt : 0;
};

/** The tool a part of an assistant message calls (`tool-<name>` and dynamic tool parts), else undefined. */
function toolNameOf(part: Part): string | undefined {
  if (part.type === "dynamic-tool") return String(part.toolName ?? "");
  return part.type.startsWith("tool-") ? part.type.slice("tool-".length) : undefined;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** A tool part's outcome as pi's tool result: the answer as JSON text (and whole in `details`), or the error's text. */
function toolResultOf(part: Part, toolName: string, timestamp: number): ToolResultAgentMessage | undefined {
  const toolCallId = String(part.toolCallId ?? "");
  if (part.state === "output-available") {
    return { role: "toolResult", toolCallId, toolName, content: [{ type: "text", text: JSON.stringify(part.output ?? null) }], details: part.output, isError: false, timestamp };
  }
  if (part.state === "output-error") return { role: "toolResult", toolCallId, toolName, content: [{ type: "text", text: String(part.errorText ?? "") }], isError: true, timestamp };
  // A call still waiting (for its input, an approval or its tool) has no result yet.
  return undefined;
}

/** A compaction that took place, as pi's summary message; undefined for one that failed or was stopped. */
function compactionSummaryOf(part: Part, timestamp: number): AgentMessage | undefined {
  const data = part.data as Partial<CompactionData> | undefined;
  if (data?.phase !== "end" || typeof data.summary !== "string" || data.error !== undefined) return undefined;
  return { role: "compactionSummary", summary: data.summary, tokensBefore: data.tokensBefore ?? 0, timestamp };
}

/** A user's message: its text, and its images as the session's attachments (`data` empty; `displayUrl` signed when it can be). */
function userMessage(message: SessionMessage, displayUrls: ReadonlyMap<string, string>): UserAgentMessage {
  const content = message.parts.flatMap((part): UserAgentMessage["content"] => {
    if (part.type === "text") return [{ type: "text", text: String(part.text ?? "") }];
    const attachmentId = attachmentIdOf(part);
    if (!attachmentId) return [];
    const displayUrl = displayUrls.get(attachmentId);
    return [{ type: "image", data: "", mimeType: String(part.mediaType ?? "application/octet-stream"), attachmentId, ...(displayUrl !== undefined && { displayUrl }) }];
  });
  return { role: "user", content, timestamp: timestampOf(message) };
}

/**
 * An assistant message (a turn, or a direct tool call) as pi has it: one assistant message per model
 * call (a `step-start` part begins one) with its text, thinking and tool calls, followed by the
 * calls' results; a steer that joined the turn as the user's message where it joined; a compaction
 * as pi's summary message where it was made.
 */
function assistantMessages(message: SessionMessage): AgentMessage[] {
  const timestamp = timestampOf(message);
  const out: AgentMessage[] = [];
  let content: AssistantAgentMessage["content"] = [];
  let results: ToolResultAgentMessage[] = [];
  const close = () => {
    const stopReason = content.some((item) => item.type === "toolCall") ? "toolUse" : "stop";
    if (content.length > 0) out.push({ role: "assistant", content, api: "", provider: "", model: "", usage: NO_USAGE, stopReason, timestamp });
    out.push(...results);
    content = [];
    results = [];
  };
  for (const part of message.parts) {
    const toolName = toolNameOf(part);
    const steers = steersOf(part);
    const summary = COMPACTION_PARTS.has(part.type) ? compactionSummaryOf(part, timestamp) : undefined;
    if (part.type === "step-start") close();
    else if (part.type === "text") content.push({ type: "text", text: String(part.text ?? "") });
    else if (part.type === "reasoning") content.push({ type: "thinking", thinking: String(part.text ?? "") });
    else if (toolName !== undefined) {
      content.push({ type: "toolCall", id: String(part.toolCallId ?? ""), name: toolName, arguments: isRecord(part.input) ? part.input : {} });
      const result = toolResultOf(part, toolName, timestamp);
      if (result) results.push(result);
    } else if (steers.length > 0 || summary) {
      close();
      out.push(...steers.map((text): AgentMessage => ({ role: "user", content: [{ type: "text", text }], timestamp })));
      if (summary) out.push(summary);
    }
  }
  close();
  return out;
}

/**
 * The history in pi's message shape (GET /messages), for clients that rebuild their chat from pi's
 * messages, as pi-web's does on resume. `displayUrls` are the signed URLs of the attachments it shows.
 */
export function toPiMessages(history: SessionMessage[], displayUrls: ReadonlyMap<string, string>): AgentMessage[] {
  return history.flatMap((message) => (message.role === "user" ? [userMessage(message, displayUrls)] : message.role === "assistant" ? assistantMessages(message) : []));
}
