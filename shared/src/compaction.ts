import * as v from "valibot";
import { described } from "./described.ts";

/** Why a compaction ran: the estimate passed the threshold, the provider refused the request as too long, or a user asked. */
export const COMPACTION_REASONS = ["threshold", "overflow", "manual"] as const;
export type CompactionReason = (typeof COMPACTION_REASONS)[number];

/**
 * The data of a `data-pi-compaction` chunk (and of the `data-pi-compaction` part it leaves in the
 * history): `start` when the summary is requested, `end` when it is in place (or failed: `error`;
 * `aborted` when POST /abort stopped it). pi-web's protocol names `phase`, `reason`, `summary` and
 * `aborted`; the other fields are ours (additive).
 * Both chunks of one compaction share the chunk's `id`, so the stored part shows the end state.
 */
export const CompactionDataSchema = v.object({
  phase: v.picklist(["start", "end"]),
  reason: v.picklist(COMPACTION_REASONS),
  tokensBefore: described(v.number(), "The estimated tokens of the model's context before the compaction."),
  tokensAfter: described(v.number(), "The estimate after it (at `start`, and after a failure, the same as tokensBefore)."),
  summary: v.optional(described(v.string(), "At `end`: the summary the model sees in place of the older history.")),
  firstKeptMessageId: v.optional(described(v.string(), "At `end`: the first history message the model still sees (from its `firstKeptStep`-th step)." )),
  firstKeptStep: v.optional(v.number()),
  error: v.optional(described(v.string(), "At `end` of a compaction that did not happen: why; the history is unchanged.")),
  aborted: v.optional(described(v.literal(true), "At `end` of a compaction an abort stopped.")),
});
export type CompactionData = v.InferOutput<typeof CompactionDataSchema>;

/** POST /api/sessions/:id/compact. */
export const CompactRequestSchema = v.looseObject({
  instructions: v.optional(v.pipe(v.string("instructions must be a string"), v.maxLength(4_000, "instructions must be at most 4000 characters"))),
});

export const CompactResponseSchema = v.object({
  compacted: v.boolean(),
  reason: v.optional(described(v.string(), "Why nothing was compacted.")),
  tokensBefore: v.optional(v.number()),
  tokensAfter: v.optional(v.number()),
  summary: v.optional(v.string()),
});
export type CompactResponse = v.InferOutput<typeof CompactResponseSchema>;
