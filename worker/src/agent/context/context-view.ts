import type { ModelMessage } from "ai";
import { charsOf, tokensOfChars } from "./context-meter.ts";

/** Where a model message starts in the history: a message, from its `step`-th step (0 for a user message or the first step). */
export interface Origin {
  messageId: string;
  step: number;
}

/**
 * The messages a model call sends, each with its origin: an Origin where the history may be cut
 * (a user message, or an assistant step: never between a tool call and its result), "summary" for
 * the summary of a compaction, undefined elsewhere.
 */
export interface ContextView {
  messages: ModelMessage[];
  origins: Array<Origin | "summary" | undefined>;
}

export const SUMMARY_HEADING = "The conversation before this point was summarised to save context; the summary:";

/** The message the model gets in place of the history a compaction summarised. */
export function summaryMessage(summary: string): ModelMessage {
  return { role: "user", content: [{ type: "text", text: `${SUMMARY_HEADING}\n\n${summary}` }] };
}

/**
 * Where to cut a view: the latest cut point that keeps at least `keepTokens` of messages after it,
 * else the earliest cut point after that mark (a long last step is kept whole). Undefined when the
 * cut would summarise nothing but an earlier summary.
 */
export function chooseCut(view: ContextView, keepTokens: number): number | undefined {
  const start = view.origins[0] === "summary" ? 1 : 0;
  const points = view.origins.flatMap((origin, i) => (i > start && origin !== undefined && origin !== "summary" ? [i] : []));
  if (points.length === 0) return undefined;
  let kept = 0;
  let mark = view.messages.length;
  while (mark > 0 && kept < keepTokens) kept += tokensOfChars(charsOf(view.messages[--mark]!));
  const before = points.filter((i) => i <= mark);
  return before.at(-1) ?? points[0];
}
