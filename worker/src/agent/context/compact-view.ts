import type { CompactionData, CompactionReason, UiMessageChunk } from "@edge-web/shared";
import type { ModelMessage } from "ai";
import { charsOfAll, tokensOfChars, type ContextLimits } from "./context-meter.ts";
import { chooseCut, summaryMessage, type ContextView, type Origin } from "./context-view.ts";

/** A compaction as the session stores it: the model sees `summary`, then the history from the first kept message's step. */
export interface CompactionEntry {
  id: string;
  summary: string;
  firstKeptMessageId: string;
  firstKeptStep: number;
  tokensBefore: number;
  tokensAfter: number;
  reason: CompactionReason;
  createdAt: number;
}

export interface CompactionDeps {
  limits: ContextLimits;
  /** The system prompt and tool definitions, in characters. */
  baseChars: number;
  /** The summary of `older` by the session's model; throws when the call fails or is aborted. */
  summarise(older: ModelMessage[], signal: AbortSignal, instructions?: string): Promise<string>;
  /** Keeps a compaction that succeeded (the session's store, its counters). */
  keep(entry: CompactionEntry): void;
  /** The stream the `data-pi-compaction` chunks go to. */
  chunk(chunk: UiMessageChunk): void;
  /** While a summary is requested (state.isCompacting). */
  compacting(on: boolean): void;
  newId(): string;
}

export type Compaction =
  | { ok: true; view: ContextView; cut: number; entry: CompactionEntry }
  | { ok: false; why: "nothing" | "failed"; message: string };

/**
 * Summarises the view's older messages (cut by chooseCut) and answers summary + kept messages. The
 * stream shows `data-pi-compaction` start and end; the entry is kept only once the summary is in hand,
 * so a failure or an abort (which rethrows) leaves the history as it was.
 */
export async function compactView(
  view: ContextView,
  reason: CompactionReason,
  tokensBefore: number,
  deps: CompactionDeps,
  signal: AbortSignal,
  instructions?: string,
): Promise<Compaction> {
  const cut = chooseCut(view, deps.limits.keep);
  if (cut === undefined) return { ok: false, why: "nothing", message: "Nothing to compact: the history since the last summary is all recent." };
  const origin = view.origins[cut] as Origin;
  const id = `cmp_${deps.newId()}`;
  const show = (data: CompactionData) => deps.chunk({ type: "data-pi-compaction", id, data });
  show({ phase: "start", reason, tokensBefore, tokensAfter: tokensBefore });
  deps.compacting(true);
  let summary: string;
  try {
    summary = await deps.summarise(view.messages.slice(0, cut), signal, instructions);
  } catch (error) {
    const message = signal.aborted ? "aborted: the history is unchanged" : "the summary could not be made; the history is unchanged";
    show({ phase: "end", reason, tokensBefore, tokensAfter: tokensBefore, error: message, ...(signal.aborted && { aborted: true }) });
    if (signal.aborted) throw error;
    return { ok: false, why: "failed", message: `The compaction failed: ${message}.` };
  } finally {
    deps.compacting(false);
  }
  const kept: ContextView = { messages: [summaryMessage(summary), ...view.messages.slice(cut)], origins: ["summary", ...view.origins.slice(cut)] };
  const tokensAfter = tokensOfChars(deps.baseChars + charsOfAll(kept.messages));
  const entry: CompactionEntry = { id, summary, firstKeptMessageId: origin.messageId, firstKeptStep: origin.step, tokensBefore, tokensAfter, reason, createdAt: Date.now() };
  deps.keep(entry);
  show({ phase: "end", reason, tokensBefore, tokensAfter, summary, firstKeptMessageId: origin.messageId, firstKeptStep: origin.step });
  return { ok: true, view: kept, cut, entry };
}
