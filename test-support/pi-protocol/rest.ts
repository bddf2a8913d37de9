import * as v from "valibot";
import { PiAgentMessageSchema } from "./messages.ts";
import { PiModelSchema } from "./model.ts";
import { PiSessionStateSchema } from "./session-state.ts";

/** pi-web's `POST /sessions` body: `resumeId` asks for an existing session back. */
export const PiCreateSessionRequestSchema = v.object({
  source: v.string(),
  cwd: v.optional(v.string()),
  model: v.optional(v.string()),
  env: v.optional(v.record(v.string(), v.string())),
  resumeId: v.optional(v.string()),
  trust: v.optional(v.boolean()),
});
export const PiCreateSessionResponseSchema = v.object({ sessionId: v.string() });

export const PiGetStateResponseSchema = v.object({ state: PiSessionStateSchema });
export const PiGetAvailableModelsResponseSchema = v.object({ models: v.array(PiModelSchema) });
export const PiGetMessagesResponseSchema = v.object({ messages: v.array(PiAgentMessageSchema) });
