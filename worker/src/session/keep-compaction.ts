import type { LanguageModelUsage } from "ai";
import type { CompactionEntry } from "../agent/context/compact-view.ts";
import { resolveModel } from "../agent/model/resolve-model.ts";
import { costOf, NO_TOKENS, tokensOf } from "../agent/model/token-usage.ts";
import type { HeldSession } from "./held-session.ts";

/** A compaction made: stored, counted (stats' `compactions`), and its summary call's usage and cost (when the model told them) added to the session's. */
export function keepCompaction(held: HeldSession, entry: CompactionEntry, usage: LanguageModelUsage | undefined): void {
  const stores = held.stores;
  if (!stores) return;
  stores.compactions.add(entry);
  const tokens = usage ? tokensOf(usage) : NO_TOKENS;
  stores.counters.add("compaction.count");
  stores.counters.add("compaction.inputTokens", tokens.input + tokens.cacheRead + tokens.cacheWrite);
  stores.counters.add("compaction.outputTokens", tokens.output);
  stores.counters.add("compaction.tokensSaved", Math.max(0, entry.tokensBefore - entry.tokensAfter));
  const model = resolveModel(held.settings!.agent, held.agent.selection, held.current?.model);
  held.addUsage(tokens, costOf(tokens, model.ok ? model.value.entry?.cost : undefined));
}
