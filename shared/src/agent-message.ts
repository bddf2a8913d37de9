import * as v from "valibot";
import { described } from "./described.ts";

/**
 * A session's history in pi's own message shape (pi-ai's `Message` and pi-coding-agent's compaction
 * summary, together pi's `AgentMessage`): what `GET /api/sessions/:id/messages` answers unless
 * `?format=ui` asks for AI SDK UIMessages. pi-web's client rebuilds its chat from these.
 */
const TextContentSchema = v.object({ type: v.literal("text"), text: v.string() });
const ThinkingContentSchema = v.object({ type: v.literal("thinking"), thinking: v.string() });
const ImageContentSchema = v.object({
  type: v.literal("image"),
  data: described(v.string(), "Empty: the bytes are the session's attachment, read through displayUrl."),
  mimeType: v.string(),
  attachmentId: v.string(),
  displayUrl: v.optional(described(v.string(), "A signed URL to the image, valid for a limited time (absent without ATTACHMENT_SECRET).")),
});
const ToolCallSchema = v.object({ type: v.literal("toolCall"), id: v.string(), name: v.string(), arguments: v.record(v.string(), v.unknown()) });

const UsageSchema = v.object({
  input: v.number(),
  output: v.number(),
  cacheRead: v.number(),
  cacheWrite: v.number(),
  totalTokens: v.number(),
  cost: v.object({ input: v.number(), output: v.number(), cacheRead: v.number(), cacheWrite: v.number(), total: v.number() }),
});

export const UserAgentMessageSchema = v.object({
  role: v.literal("user"),
  content: v.array(v.union([TextContentSchema, ImageContentSchema])),
  timestamp: described(v.number(), "Milliseconds since the epoch."),
});

export const AssistantAgentMessageSchema = v.object({
  role: v.literal("assistant"),
  content: v.array(v.union([TextContentSchema, ThinkingContentSchema, ToolCallSchema])),
  api: described(v.string(), "Empty: the history does not record which model made a message."),
  provider: described(v.string(), "Empty, as api."),
  model: described(v.string(), "Empty, as api."),
  usage: described(UsageSchema, "Zeros: usage is counted per session (GET /stats)."),
  stopReason: described(v.picklist(["stop", "toolUse"]), "toolUse for a model call that called tools, else stop."),
  timestamp: v.number(),
});

export const ToolResultAgentMessageSchema = v.object({
  role: v.literal("toolResult"),
  toolCallId: v.string(),
  toolName: v.string(),
  content: described(v.array(TextContentSchema), "The tool's answer as JSON text, or its error text."),
  details: v.optional(described(v.unknown(), "The tool's answer (absent for an error).")),
  isError: v.boolean(),
  timestamp: v.number(),
});

export const CompactionSummaryAgentMessageSchema = v.object({
  role: v.literal("compactionSummary"),
  summary: described(v.string(), "What the model sees in place of the history before this point."),
  tokensBefore: v.number(),
  timestamp: v.number(),
});

export const AgentMessageSchema = v.variant("role", [UserAgentMessageSchema, AssistantAgentMessageSchema, ToolResultAgentMessageSchema, CompactionSummaryAgentMessageSchema]);
export type AgentMessage = v.InferOutput<typeof AgentMessageSchema>;
export type AssistantAgentMessage = v.InferOutput<typeof AssistantAgentMessageSchema>;
export type UserAgentMessage = v.InferOutput<typeof UserAgentMessageSchema>;
export type ToolResultAgentMessage = v.InferOutput<typeof ToolResultAgentMessageSchema>;
