import { catalogModel } from "../agent/model/catalog-model.ts";
import { resolveModel } from "../agent/model/resolve-model.ts";
import type { Settings } from "../config/resolve-settings.ts";
import type { HeldSession } from "./held-session.ts";
import { sessionStats } from "./session-stats.ts";
import type { SessionStores } from "./session-stores.ts";

/** What runs now, as the session's state reports it. */
export interface SessionActivityNow {
  busy: boolean;
  /** A summary is being made (automatic or asked for). */
  compacting: boolean;
  pending: number;
  subscribers: number;
}

/** GET …/stats: the counters, latencies, message counts and usage. */
export function statsOf(held: HeldSession, stores: SessionStores) {
  const roles = stores.messages.roles();
  const counts = { user: roles.filter((role) => role === "user").length, assistant: roles.filter((role) => role === "assistant").length, total: roles.length };
  return sessionStats(held.current?.sessionId ?? "", stores.counters.all(), stores.latency.summary(), counts, held.agent.tokens, held.agent.cost);
}

/**
 * GET …/state: the record, the agent's choices and what runs; `model` (pi's Model) is the one a turn
 * would call now, absent when none resolves (pi's state has it optional, never null).
 */
export function stateOf(held: HeldSession, stores: SessionStores, settings: Settings | undefined, now: SessionActivityNow): object {
  const current = held.current!;
  const resolved = settings && resolveModel(settings.agent, held.agent.selection, current.model);
  const model = settings && resolved?.ok ? catalogModel(resolved.value.provider, resolved.value.entry ?? { id: resolved.value.modelId }, settings.agent.compaction.defaultContextWindow) : undefined;
  return {
    sessionId: current.sessionId,
    status: current.status,
    thinkingLevel: held.thinkingLevel(),
    isStreaming: now.busy,
    isCompacting: now.compacting,
    steeringMode: "all",
    followUpMode: "one-at-a-time",
    autoCompactionEnabled: settings?.agent.compaction.enabled ?? true,
    messageCount: stores.messages.count(),
    pendingMessageCount: now.pending,
    ...(model && { model }),
    subscribers: now.subscribers,
    lastEventId: stores.frames.lastId(),
    source: current.source,
    ...(current.cwd !== undefined && { cwd: current.cwd }),
    createdAt: current.createdAt,
  };
}
