import * as v from "valibot";

/**
 * pi-web's SSE frame (protocol 0.1.0), as its client parses every frame of `GET /sessions/:id/stream`
 * before using it (a frame it rejects is logged and dropped): our own valibot rendering of the
 * protocol's frame union, for checking our frames. Like the client's parser it drops keys it does
 * not know (additive fields) and requires the ones it names; a field it types as `unknown` may be
 * absent.
 */

/** AI SDK v5's lifecycle chunks. */
const lifecycle = [
  v.object({ type: v.literal("start"), messageId: v.optional(v.string()) }),
  v.object({ type: v.literal("finish") }),
  v.object({ type: v.literal("start-step") }),
  v.object({ type: v.literal("finish-step") }),
  v.object({ type: v.literal("error"), errorText: v.string() }),
  v.object({ type: v.literal("abort") }),
];

const text = [
  v.object({ type: v.literal("text-start"), id: v.string() }),
  v.object({ type: v.literal("text-delta"), id: v.string(), delta: v.string() }),
  v.object({ type: v.literal("text-end"), id: v.string() }),
];

const reasoning = [
  v.object({ type: v.literal("reasoning-start"), id: v.string() }),
  v.object({ type: v.literal("reasoning-delta"), id: v.string(), delta: v.string() }),
  v.object({ type: v.literal("reasoning-end"), id: v.string() }),
];

const tool = [
  v.object({ type: v.literal("tool-input-start"), toolCallId: v.string(), toolName: v.string() }),
  v.object({ type: v.literal("tool-input-delta"), toolCallId: v.string(), inputTextDelta: v.string() }),
  v.object({ type: v.literal("tool-input-available"), toolCallId: v.string(), toolName: v.string(), input: v.optional(v.unknown()) }),
  v.object({
    type: v.literal("tool-output-available"),
    toolCallId: v.string(),
    output: v.optional(v.unknown()),
    isError: v.optional(v.boolean()),
    preliminary: v.optional(v.boolean()),
  }),
  v.object({ type: v.literal("tool-output-error"), toolCallId: v.string(), errorText: v.string() }),
];

/** Design tokens only: no free CSS. */
const size = v.picklist(["xs", "sm", "md", "lg", "xl"]);
const PiUiStyleSchema = v.strictObject({
  tone: v.optional(v.picklist(["default", "muted", "primary", "success", "warning", "danger", "info"])),
  size: v.optional(size),
  align: v.optional(v.picklist(["start", "center", "end", "between"])),
  weight: v.optional(v.picklist(["normal", "medium", "semibold", "bold"])),
  gap: v.optional(size),
  pad: v.optional(size),
});
const href = v.pipe(v.string(), v.minLength(1), v.regex(/^(https?:|mailto:)/i));
const imageSrc = v.pipe(v.string(), v.minLength(1), v.regex(/^(https?:|data:image\/)/i));

/** A node of a sandboxed server-driven UI: only `box` holds children. */
const PiUiNodeSchema: v.GenericSchema = v.lazy(() =>
  v.variant("el", [
    v.object({ el: v.literal("box"), direction: v.optional(v.picklist(["row", "col"])), style: v.optional(PiUiStyleSchema), children: v.optional(v.array(PiUiNodeSchema)) }),
    v.object({ el: v.literal("text"), text: v.string(), style: v.optional(PiUiStyleSchema) }),
    v.object({ el: v.literal("heading"), level: v.optional(v.picklist([1, 2, 3])), text: v.string(), style: v.optional(PiUiStyleSchema) }),
    v.object({ el: v.literal("badge"), text: v.string(), style: v.optional(PiUiStyleSchema) }),
    v.object({ el: v.literal("divider") }),
    v.object({ el: v.literal("code"), text: v.string(), lang: v.optional(v.string()), block: v.optional(v.boolean()) }),
    v.object({ el: v.literal("link"), text: v.string(), href }),
    v.object({ el: v.literal("list"), ordered: v.optional(v.boolean()), items: v.array(v.string()) }),
    v.object({ el: v.literal("keyValue"), rows: v.array(v.object({ key: v.string(), value: v.string() })) }),
    v.object({ el: v.literal("table"), columns: v.array(v.string()), rows: v.array(v.array(v.string())), caption: v.optional(v.string()) }),
    v.object({ el: v.literal("image"), src: imageSrc, alt: v.optional(v.string()), style: v.optional(PiUiStyleSchema) }),
  ]),
);

/** Server-driven UI: a built-in component by name, or a sandboxed node tree. */
const PiUiSpecSchema = v.variant("kind", [
  v.object({ kind: v.literal("builtin"), component: v.pipe(v.string(), v.minLength(1)), props: v.optional(v.record(v.string(), v.unknown())), title: v.optional(v.string()) }),
  v.object({ kind: v.literal("sandbox"), root: PiUiNodeSchema, title: v.optional(v.string()) }),
]);

/** pi's own parts: the queue of steers and follow-ups, compactions, automatic retries, server-driven UI. */
const dataParts = [
  v.object({ type: v.literal("data-pi-queue"), data: v.object({ steering: v.array(v.string()), followUp: v.array(v.string()) }) }),
  v.object({
    type: v.literal("data-pi-compaction"),
    data: v.object({
      phase: v.picklist(["start", "end"]),
      reason: v.picklist(["manual", "threshold", "overflow"]),
      summary: v.optional(v.string()),
      aborted: v.optional(v.boolean()),
    }),
  }),
  v.object({
    type: v.literal("data-pi-auto-retry"),
    data: v.object({
      phase: v.picklist(["start", "end"]),
      attempt: v.number(),
      maxAttempts: v.optional(v.number()),
      delayMs: v.optional(v.number()),
      success: v.optional(v.boolean()),
      errorMessage: v.optional(v.string()),
    }),
  }),
  v.object({ type: v.literal("data-pi-ui"), data: PiUiSpecSchema }),
];

/** The payload of a `uiMessageChunk` frame: AI SDK v5's chunks the protocol names, and pi's data parts. */
export const PiUiMessageChunkSchema = v.variant("type", [...lifecycle, ...text, ...reasoning, ...tool, ...dataParts]);

/** A frame's structured log entry. */
const PiLogEntrySchema = v.object({
  id: v.optional(v.string()),
  level: v.picklist(["debug", "info", "warn", "error"]),
  ns: v.pipe(v.string(), v.minLength(1)),
  msg: v.string(),
  data: v.optional(v.unknown()),
  ts: v.number(),
});

/** The payload of a `control` frame, told apart by `control`. */
export const PiControlPayloadSchema = v.variant("control", [
  // pi's extension UI request; the client reads it as one (its `type` is "extension_ui_request").
  v.object({ control: v.literal("extension-ui"), request: v.looseObject({}) }),
  v.object({ control: v.literal("queue"), steering: v.array(v.string()), followUp: v.array(v.string()) }),
  v.object({ control: v.literal("stats"), stats: v.looseObject({}) }),
  v.object({ control: v.literal("error"), message: v.string(), code: v.optional(v.string()) }),
  v.object({
    control: v.literal("ui-rpc"),
    response: v.object({
      correlationId: v.pipe(v.string(), v.minLength(1)),
      ok: v.boolean(),
      result: v.optional(v.unknown()),
      error: v.optional(v.object({ code: v.string(), message: v.string() })),
    }),
  }),
  v.object({ control: v.literal("logs"), entries: v.array(PiLogEntrySchema) }),
]);

/** pi's extension UI request, as the client's dialog queue reads a `confirm` one. */
export const PiExtensionUiConfirmSchema = v.object({
  type: v.literal("extension_ui_request"),
  id: v.string(),
  method: v.literal("confirm"),
  title: v.string(),
  message: v.string(),
  timeout: v.optional(v.number()),
});

/** One frame of the stream (its `data:` line), told apart by `kind`. */
export const PiSseFrameSchema = v.variant("kind", [
  v.object({ kind: v.literal("uiMessageChunk"), protocolVersion: v.string(), chunk: PiUiMessageChunkSchema }),
  v.object({ kind: v.literal("control"), protocolVersion: v.string(), payload: PiControlPayloadSchema }),
]);
export type PiSseFrame = v.InferOutput<typeof PiSseFrameSchema>;
