import * as v from "valibot";

/**
 * pi-web's UI↔agent RPC (POST /ui-rpc): the client sends a request and learns its answer from a
 * `ui-rpc` control frame on the session's stream, paired by `correlationId`; the POST itself only
 * acknowledges. A failed answer's `error` is `{ code, message }`.
 */

export const PI_UI_RPC_POINTS = ["slash", "mention", "autocomplete", "inlineComplete", "command", "custom"] as const;
export const PI_UI_RPC_ACTIONS = ["list", "resolve", "execute", "complete"] as const;

/** What the client's RPC bus sends. */
export const PiUiRpcRequestSchema = v.object({
  correlationId: v.pipe(v.string(), v.minLength(1)),
  point: v.picklist(PI_UI_RPC_POINTS),
  action: v.picklist(PI_UI_RPC_ACTIONS),
  payload: v.unknown(),
  protocolVersion: v.string(),
});
export type PiUiRpcRequest = v.InferOutput<typeof PiUiRpcRequestSchema>;

export const PiUiRpcResponseSchema = v.looseObject({
  correlationId: v.pipe(v.string(), v.minLength(1)),
  ok: v.boolean(),
  result: v.optional(v.unknown()),
  error: v.optional(v.looseObject({ code: v.string(), message: v.string() })),
});

/** The stream's frame carrying an answer. */
export const PiUiRpcControlFrameSchema = v.looseObject({
  kind: v.literal("control"),
  protocolVersion: v.string(),
  payload: v.looseObject({ control: v.literal("ui-rpc"), response: PiUiRpcResponseSchema }),
});

/** The acknowledgement the POST answers. */
export const PiCommandAckSchema = v.looseObject({ ok: v.literal(true) });
