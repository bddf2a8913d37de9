import * as v from "valibot";

/**
 * pi-web's completion shapes (GET /completion/triggers and GET /completion?trigger=&q=), as its
 * client reads them: a trigger's `extract` rule says how the token is cut from the input
 * (`lineStart`: the trigger opens a line; `wordTail`: the word the cursor ends), items are grouped
 * by `kind` and a picked item replaces the token with its `insertText` (else its `label`) and a space.
 */

export const PiCompletionExtractSchema = v.picklist(["wordTail", "lineStart"]);

export const PiCompletionTriggersResponseSchema = v.looseObject({
  triggers: v.array(v.looseObject({ trigger: v.pipe(v.string(), v.length(1)), extract: PiCompletionExtractSchema })),
});

export const PiCompletionItemSchema = v.looseObject({
  providerId: v.string(),
  kind: v.string(),
  id: v.string(),
  label: v.string(),
  detail: v.optional(v.string()),
  insertText: v.optional(v.string()),
  score: v.optional(v.number()),
  sortText: v.optional(v.string()),
});
export type PiCompletionItem = v.InferOutput<typeof PiCompletionItemSchema>;

export const PiCompletionResponseSchema = v.looseObject({
  items: v.array(PiCompletionItemSchema),
  groups: v.array(v.looseObject({ kind: v.string(), count: v.number() })),
});
