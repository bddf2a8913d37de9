import * as v from "valibot";

/** pi's message content parts (pi-ai): text, thinking, image, tool call. */
export const PiTextContentSchema = v.object({ type: v.literal("text"), text: v.string(), textSignature: v.optional(v.string()) });
export const PiThinkingContentSchema = v.object({
  type: v.literal("thinking"),
  thinking: v.string(),
  thinkingSignature: v.optional(v.string()),
  redacted: v.optional(v.boolean()),
});
export const PiImageContentSchema = v.object({ type: v.literal("image"), data: v.string(), mimeType: v.string() });
export const PiToolCallSchema = v.object({
  type: v.literal("toolCall"),
  id: v.string(),
  name: v.string(),
  arguments: v.record(v.string(), v.unknown()),
  thoughtSignature: v.optional(v.string()),
});

const cost = v.object({ input: v.number(), output: v.number(), cacheRead: v.number(), cacheWrite: v.number(), total: v.number() });
export const PiUsageSchema = v.object({
  input: v.number(),
  output: v.number(),
  cacheRead: v.number(),
  cacheWrite: v.number(),
  cacheWrite1h: v.optional(v.number()),
  totalTokens: v.number(),
  cost,
});

export const PiUserMessageSchema = v.object({
  role: v.literal("user"),
  content: v.union([v.string(), v.array(v.union([PiTextContentSchema, PiImageContentSchema]))]),
  timestamp: v.number(),
});

export const PiAssistantMessageSchema = v.object({
  role: v.literal("assistant"),
  content: v.array(v.union([PiTextContentSchema, PiThinkingContentSchema, PiToolCallSchema])),
  api: v.string(),
  provider: v.string(),
  model: v.string(),
  responseModel: v.optional(v.string()),
  responseId: v.optional(v.string()),
  diagnostics: v.optional(v.array(v.unknown())),
  usage: PiUsageSchema,
  stopReason: v.picklist(["stop", "length", "toolUse", "error", "aborted"]),
  errorMessage: v.optional(v.string()),
  timestamp: v.number(),
});

export const PiToolResultMessageSchema = v.object({
  role: v.literal("toolResult"),
  toolCallId: v.string(),
  toolName: v.string(),
  content: v.array(v.union([PiTextContentSchema, PiImageContentSchema])),
  details: v.optional(v.unknown()),
  isError: v.boolean(),
  timestamp: v.number(),
});

/** pi's `Message`, told apart by `role`. */
export const PiMessageSchema = v.variant("role", [PiUserMessageSchema, PiAssistantMessageSchema, PiToolResultMessageSchema]);

/** pi-coding-agent's compaction summary, one of the agent's own message kinds. */
export const PiCompactionSummaryMessageSchema = v.object({
  role: v.literal("compactionSummary"),
  summary: v.string(),
  tokensBefore: v.number(),
  timestamp: v.number(),
});

const MESSAGE_ROLES: readonly string[] = ["user", "assistant", "toolResult"];

/**
 * pi's `AgentMessage`: a `Message`, or one of an agent's own kinds (any other `role`). Stricter than
 * pi's parser on one point, so that a check means something: a message with a `Message` role must
 * be a valid `Message` (pi's parser would let a broken one through as an agent's own kind).
 */
export const PiAgentMessageSchema = v.union([
  PiMessageSchema,
  v.looseObject({ role: v.pipe(v.string(), v.check((role) => !MESSAGE_ROLES.includes(role), "a Message role must be a valid Message")) }),
]);
