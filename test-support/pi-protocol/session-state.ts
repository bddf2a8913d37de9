import * as v from "valibot";
import { PiModelSchema, PiThinkingLevelSchema } from "./model.ts";

const PiQueueModeSchema = v.picklist(["all", "one-at-a-time"]);

/** pi's `RpcSessionState`: what `GET /sessions/:id/state` answers under `state`. `model` may be absent, never null. */
export const PiSessionStateSchema = v.object({
  model: v.optional(PiModelSchema),
  thinkingLevel: PiThinkingLevelSchema,
  isStreaming: v.boolean(),
  isCompacting: v.boolean(),
  steeringMode: PiQueueModeSchema,
  followUpMode: PiQueueModeSchema,
  sessionFile: v.optional(v.string()),
  sessionId: v.string(),
  sessionName: v.optional(v.string()),
  autoCompactionEnabled: v.boolean(),
  messageCount: v.number(),
  pendingMessageCount: v.number(),
});
