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

/** Where a UI's request comes from and what it asks (pi-web's ui-rpc points and actions). */
export const UI_RPC_POINTS = ["slash", "mention", "autocomplete", "inlineComplete", "command", "custom"] as const;
export const UI_RPC_ACTIONS = ["list", "resolve", "execute", "complete"] as const;

const correlationId = v.pipe(text("correlationId"), v.nonEmpty("correlationId must not be empty"));

/** pi-web's request (its UiRpcRequest); `payload`'s shape depends on the point and action. */
const PointUiRpcRequestSchema = v.looseObject({
  correlationId,
  point: v.picklist(UI_RPC_POINTS),
  action: v.picklist(UI_RPC_ACTIONS),
  payload: v.optional(v.unknown()),
  protocolVersion: v.optional(v.string()),
});

/** Our first shape, still taken: a method call, the same as the `custom` point's `execute`. */
const MethodUiRpcRequestSchema = v.pipe(
  v.looseObject({ correlationId, method: text("method"), params: v.optional(v.unknown()) }),
  v.transform(({ correlationId, method, params }) => ({ correlationId, point: "custom" as const, action: "execute" as const, payload: { method, params } })),
);

export const UiRpcRequestSchema = v.union(
  [PointUiRpcRequestSchema, MethodUiRpcRequestSchema],
  `Send { correlationId, point, action, payload } (point one of ${UI_RPC_POINTS.join(", ")}; action one of ${UI_RPC_ACTIONS.join(", ")}), or { correlationId, method, params? }`,
);
export type UiRpcRequest = v.InferOutput<typeof UiRpcRequestSchema>;
