import * as v from "valibot";
import { THINKING_LEVELS } from "./agent-config.ts";

const text = (what: string) => v.string(`${what} is required: a string`);

/** An image sent with a message: base64 bytes and their type. */
export const ImageInputSchema = v.object({
  data: v.pipe(v.string(), v.nonEmpty("must not be empty"), v.base64("must be base64")),
  mimeType: v.pipe(v.string(), v.regex(/^image\//, "must be an image/* type")),
});

export const PromptRequestSchema = v.looseObject({
  message: text("message"),
  images: v.optional(v.array(ImageInputSchema)),
  attachmentIds: v.optional(v.array(v.string())),
  streamingBehavior: v.optional(v.picklist(["steer", "followUp"])),
});
export type PromptRequest = v.InferOutput<typeof PromptRequestSchema>;

export const SteerRequestSchema = v.looseObject({
  message: text("message"),
  images: v.optional(v.array(ImageInputSchema)),
});
export type SteerRequest = v.InferOutput<typeof SteerRequestSchema>;

export const SetModelRequestSchema = v.looseObject({ provider: text("provider"), modelId: text("modelId") });
export const SetThinkingRequestSchema = v.looseObject({ level: v.picklist(THINKING_LEVELS, `level must be one of ${THINKING_LEVELS.join(", ")}`) });
export const ForkRequestSchema = v.looseObject({ entryId: text("entryId") });

export const UiResponseRequestSchema = v.looseObject({
  id: text("id"),
  confirmed: v.optional(v.boolean()),
  value: v.optional(v.unknown()),
  cancelled: v.optional(v.boolean()),
});
export type UiResponseRequest = v.InferOutput<typeof UiResponseRequestSchema>;

export const UiRpcRequestSchema = v.looseObject({
  correlationId: text("correlationId"),
  method: text("method"),
  params: v.optional(v.unknown()),
});
export type UiRpcRequest = v.InferOutput<typeof UiRpcRequestSchema>;
