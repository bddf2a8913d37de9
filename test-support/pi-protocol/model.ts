import * as v from "valibot";

/**
 * pi's `Model` (pi-ai), as pi's web client parses it from `GET /sessions/:id/models` and from the
 * session state: our own valibot rendering of the shape, for checking our answers. Like pi's parser,
 * it accepts keys it does not know (additive fields) and drops them.
 */
export const PiModelSchema = v.object({
  id: v.string(),
  name: v.string(),
  api: v.string(),
  provider: v.string(),
  baseUrl: v.string(),
  reasoning: v.boolean(),
  thinkingLevelMap: v.optional(v.record(v.string(), v.nullable(v.string()))),
  input: v.array(v.picklist(["text", "image"])),
  cost: v.object({ input: v.number(), output: v.number(), cacheRead: v.number(), cacheWrite: v.number() }),
  contextWindow: v.number(),
  maxTokens: v.number(),
  headers: v.optional(v.record(v.string(), v.string())),
  compat: v.optional(v.looseObject({})),
});

/** pi's reasoning levels. */
export const PiThinkingLevelSchema = v.picklist(["minimal", "low", "medium", "high", "xhigh"]);
