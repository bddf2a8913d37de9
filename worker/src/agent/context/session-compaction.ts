import type { CompactResponse, SessionMessage, UiMessageChunk } from "@edge-web/shared";
import type { LanguageModelUsage } from "ai";
import type { Settings } from "../../config/resolve-settings.ts";
import { compactView, type CompactionDeps, type CompactionEntry } from "./compact-view.ts";
import { contextLimits, type ContextLimits, type ContextMeter } from "./context-meter.ts";
import type { ModelHandle } from "../model/open-model.ts";
import type { ResolvedModel } from "../model/resolve-model.ts";
import { summariseHistory } from "./summarise-history.ts";
import { offersSiteTools, SITE_TOOL_CHARS } from "./site-tool-definitions.ts";
import { TOOL_DEFINITION_CHARS } from "./tool-definition-chars.ts";
import { toModelMessages, type HistoryRead, type HistorySources } from "./to-model-messages.ts";

/** What a session lends its compactions. */
export interface CompactionSources extends Omit<HistorySources, "maxMentionChars" | "maxToolResultChars"> {
  /** The history from message `from` on, when it is still there (what a compaction kept); else all of it. */
  history(from?: string): HistoryRead;
  latestCompaction(): CompactionEntry | undefined;
  /** A compaction to keep, and what its summary call used. */
  keepCompaction(entry: CompactionEntry, usage: LanguageModelUsage | undefined): void;
  compacting(on: boolean): void;
  meter: ContextMeter;
  newId(): string;
}

/** The limits a model's turns run with: its window (or the default), the reserve, the kept tail, the tool result budget. */
export function limitsFor(settings: Settings, model: ResolvedModel): ContextLimits {
  return contextLimits(settings.agent.compaction, settings.agent.maxToolResultChars, model.entry?.contextWindow);
}

/** What a compaction needs, for the session's model and the stream `chunk` goes to. */
export function compactionDeps(sources: CompactionSources, settings: Settings, limits: ContextLimits, call: () => ModelHandle, chunk: (c: UiMessageChunk) => void): CompactionDeps {
  let usage: LanguageModelUsage | undefined;
  return {
    limits,
    baseChars: settings.agent.systemPrompt.length + TOOL_DEFINITION_CHARS + (offersSiteTools(limits) ? SITE_TOOL_CHARS : 0),
    summarise: async (older, signal, instructions) => {
      const { model, idleMs } = call();
      const made = await summariseHistory(older, { model, idleMs, window: limits.window, maxOutputTokens: limits.summaryTokens, signal, ...(instructions && { instructions }) });
      usage = made.usage;
      return made.summary;
    },
    keep: (entry) => sources.keepCompaction(entry, usage),
    chunk,
    compacting: (on) => sources.compacting(on),
    newId: () => sources.newId(),
  };
}

/** The history as the model sees it now (the latest compaction applied). */
export function currentView(sources: CompactionSources, settings: Settings, limits: ContextLimits) {
  const compaction = sources.latestCompaction();
  // What comes before the compaction's first kept message never reaches the model again: it is not read.
  const history = sources.history(compaction?.firstKeptMessageId);
  const references = {
    attachment: (id: string) => sources.attachment(id),
    storedResult: (responseId: string) => sources.storedResult(responseId),
    maxMentionChars: settings.config.maxContentChars,
    maxToolResultChars: limits.maxToolResultChars,
  };
  return toModelMessages(history, references, compaction);
}

/**
 * A compaction asked for (POST /compact, /compact): the history the model sees now, summarised
 * but for the recent messages, whatever its size. Streams as a message of its own whose one part is
 * the `data-pi-compaction` marker (kept in the history once made); `compacted: false` when there is
 * nothing to summarise.
 */
export async function compactSession(
  sources: CompactionSources,
  settings: Settings,
  model: ResolvedModel,
  call: () => ModelHandle,
  sink: { chunk(c: UiMessageChunk): void; message(m: SessionMessage): void },
  signal: AbortSignal,
  instructions?: string,
): Promise<CompactResponse> {
  const limits = limitsFor(settings, model);
  const view = await currentView(sources, settings, limits);
  const messageId = `msg_${sources.newId()}`;
  const parts: SessionMessage["parts"] = [];
  let started = false;
  const chunk = (c: UiMessageChunk) => {
    if (!started) sink.chunk({ type: "start", messageId });
    started = true;
    sink.chunk(c);
    if (c.type === "data-pi-compaction") parts.splice(0, parts.length, { type: c.type, id: c.id, data: c.data });
  };
  const deps = compactionDeps(sources, settings, limits, call, chunk);
  const tokensBefore = sources.meter.estimate(deps.baseChars, view.messages);
  let compacted: Awaited<ReturnType<typeof compactView>> | undefined;
  try {
    compacted = await compactView(view, "manual", tokensBefore, deps, signal, instructions);
  } finally {
    if (started) sink.chunk(signal.aborted ? { type: "abort" } : { type: "finish" });
    // Only a compaction made leaves its marker in the history: one that failed leaves it as it was.
    if (compacted?.ok) sink.message({ id: messageId, role: "assistant", parts, metadata: { createdAt: Date.now() } });
  }
  if (!compacted.ok) return { compacted: false, reason: compacted.message, tokensBefore };
  return { compacted: true, tokensBefore, tokensAfter: compacted.entry.tokensAfter, summary: compacted.entry.summary };
}
