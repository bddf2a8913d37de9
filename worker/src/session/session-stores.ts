import type { CompactionEntry } from "../agent/context/compact-view.ts";
import type { Env } from "../env.ts";
import { createAgentStateStore, type AgentStateStore } from "./agent-state.ts";
import { createAttachmentList, type AttachmentList } from "./attachment-list.ts";
import { createCompactionLog, type CompactionLog } from "./compaction-log.ts";
import { createFrameLog, type FrameLog } from "./frame-log.ts";
import { createMessageLog, type MessageLog } from "./message-log.ts";
import { createProviderLatency, type ProviderLatency } from "./provider-latency.ts";
import { createResultStore, type SessionResultStore } from "./result-store.ts";
import { createSessionActivity, type SessionActivity } from "./session-activity.ts";
import { createSessionCounters, type SessionCounters } from "./session-counters.ts";
import { createSessionRecordStore, type SessionRecordStore } from "./session-record.ts";

/** Everything a session keeps in its object's SQLite storage. */
export interface SessionStores {
  record: SessionRecordStore;
  results: SessionResultStore;
  counters: SessionCounters;
  messages: MessageLog;
  latency: ProviderLatency;
  frames: FrameLog;
  activity: SessionActivity;
  attachments: AttachmentList;
  agent: AgentStateStore;
  compactions: CompactionLog<CompactionEntry>;
}

const positive = (raw: string | undefined, fallback: number) => {
  const n = Number(raw);
  return Number.isInteger(n) && n > 0 ? n : fallback;
};

/** The session limits from the worker's environment. */
export function sessionLimits(env: Env) {
  return {
    maxMessages: positive(env.SESSION_MAX_MESSAGES, 1_000),
    replayFrames: positive(env.SSE_REPLAY_FRAMES, 1_000),
    maxPendingFrames: positive(env.SSE_MAX_PENDING_FRAMES, 1_000),
    idleMs: positive(env.SESSION_IDLE_MS, 24 * 60 * 60 * 1000),
  };
}
export type SessionLimits = ReturnType<typeof sessionLimits>;

/** Whether this object's storage holds a session; an object never created, or deleted, holds nothing. */
export function holdsSession(sql: SqlStorage): boolean {
  return sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'session'").toArray().length > 0;
}

/**
 * Writes what the logs and counters hold in memory, in one go: a call's writes then share one
 * storage commit, after the call, instead of holding its outbound requests and frames behind one.
 * With nothing held there is nothing to write, not even the activity mark (no commit at all).
 */
export function flushSessionStores(stores: SessionStores): void {
  // Every store flushes (no short-circuit); the mark records that something happened.
  const wrote = [stores.results.flush(), stores.frames.flush(), stores.messages.flush(), stores.counters.flush()];
  if (wrote.includes(true)) stores.activity.mark();
}

/** Opens (creating on first use) every table of a session. */
export function openSessionStores(sql: SqlStorage, limits: SessionLimits): SessionStores {
  return {
    record: createSessionRecordStore(sql),
    results: createResultStore(sql),
    counters: createSessionCounters(sql),
    messages: createMessageLog(sql, limits.maxMessages),
    latency: createProviderLatency(sql),
    frames: createFrameLog(sql, limits.replayFrames),
    activity: createSessionActivity(sql),
    attachments: createAttachmentList(sql),
    agent: createAgentStateStore(sql),
    compactions: createCompactionLog(sql),
  };
}
