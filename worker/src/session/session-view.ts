import { resolveModel } from "../agent/resolve-model.ts";
import type { Settings } from "../config/resolve-settings.ts";
import type { SessionSlot } from "./session-slot.ts";
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
export function statsOf(slot: SessionSlot, stores: SessionStores) {
  const roles = stores.messages.roles();
  const counts = { user: roles.filter((role) => role === "user").length, assistant: roles.filter((role) => role === "assistant").length, total: roles.length };
  return sessionStats(slot.current?.sessionId ?? "", stores.counters.all(), stores.latency.summary(), counts, slot.agent.tokens, slot.agent.cost);
}

/** GET …/state: the record, the agent's choices and what runs. */
export function stateOf(slot: SessionSlot, stores: SessionStores, settings: Settings | undefined, now: SessionActivityNow): object {
  const current = slot.current!;
  const { selection } = slot.agent;
  const model = settings && resolveModel(settings.agent, selection, current.model);
  return {
    sessionId: current.sessionId,
    status: current.status,
    thinkingLevel: slot.thinkingLevel(),
    isStreaming: now.busy,
    isCompacting: now.compacting,
    steeringMode: "all",
    followUpMode: "one-at-a-time",
    autoCompactionEnabled: settings?.agent.compaction.enabled ?? true,
    messageCount: stores.messages.count(),
    pendingMessageCount: now.pending,
    model: model?.ok
      ? { provider: model.value.provider.name, id: model.value.modelId, name: model.value.entry?.name ?? model.value.modelId, api: model.value.provider.settings.api }
      : selection
        ? { provider: selection.provider, id: selection.modelId }
        : null,
    subscribers: now.subscribers,
    lastEventId: stores.frames.lastId(),
    source: current.source,
    ...(current.cwd !== undefined && { cwd: current.cwd }),
    createdAt: current.createdAt,
  };
}
