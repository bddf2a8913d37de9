import { fail, ok, type Result, type ThinkingLevel } from "@edge-web/shared";
import { addTokens, type TokenTotals } from "../agent/model/token-usage.ts";
import type { Settings } from "../config/resolve-settings.ts";
import { type AgentState, emptyAgentState } from "./agent-state.ts";
import type { SessionRecord } from "./session-record.ts";
import { flushSessionStores, holdsSession, openSessionStores, type SessionLimits, type SessionStores } from "./session-stores.ts";

/** How soon what a running turn or a failed call holds in memory is written, at the latest. */
const PENDING_FLUSH_MS = 1_000;

export const sessionNotFound = () => fail("SESSION_NOT_FOUND", "Session not found; create one with POST /api/sessions.");

/**
 * What a session object holds in memory: the session's stores and record (none while it holds no
 * session: never created, or deleted), its agent state, the settings of its latest request, and
 * when what is pending gets written.
 */
export class HeldSession {
  stores?: SessionStores;
  current?: SessionRecord;
  agent: AgentState = emptyAgentState();
  /** The settings of the latest request: turns (follow-ups too) run with what is current. */
  settings?: Settings;
  private usageDirty = false;
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly sql: SqlStorage;
  private readonly limits: SessionLimits;

  constructor(sql: SqlStorage, limits: SessionLimits) {
    this.sql = sql;
    this.limits = limits;
    if (holdsSession(sql)) {
      this.stores = openSessionStores(sql, limits);
      this.current = this.stores.record.read();
      this.agent = this.stores.agent.read();
    }
  }

  create(record: Omit<SessionRecord, "status" | "createdAt">): void {
    this.stores ??= openSessionStores(this.sql, this.limits);
    this.current = { ...record, status: "active", createdAt: Date.now() };
    this.stores.record.write(this.current);
    this.stores.activity.mark();
  }

  /** The session's stores: 404 when it holds none; with "active", 409 when the session has ended. */
  open(need: "exists" | "active"): Result<SessionStores> {
    const current = this.current;
    if (!this.stores || !current) return sessionNotFound();
    if (need === "active" && current.status === "ended") {
      return fail("SESSION_ENDED", `Session ${current.sessionId} has ended (${current.endedReason ?? "deleted"}); create a new one.`);
    }
    return ok(this.stores);
  }

  /** Whether `stores` are still the session's: a session deleted while a call or turn runs keeps nothing of it. */
  alive(stores: SessionStores): () => boolean {
    return () => this.stores === stores;
  }

  /** Nothing of the session is held any more (DELETE); what runs still sees its own stores as not alive. */
  drop(): void {
    this.stores = undefined;
    this.current = undefined;
  }

  thinkingLevel(): ThinkingLevel {
    return this.agent.thinkingLevel ?? this.settings?.agent.defaultThinkingLevel ?? "medium";
  }

  /** A model or thinking choice, written at once. */
  choose(stores: SessionStores, change: Partial<AgentState>): void {
    this.agent = { ...this.agent, ...change };
    stores.agent.write(this.agent);
  }

  /** A model call's usage, written with the next flush. */
  addUsage(tokens: TokenTotals, cost: number): void {
    this.agent = { ...this.agent, tokens: addTokens(this.agent.tokens, tokens), cost: this.agent.cost + cost };
    this.usageDirty = true;
  }

  /** Writes what is pending, in one storage commit. */
  flush(): void {
    // What the timer would write is written now.
    if (this.flushTimer !== null) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    if (!this.stores) return;
    if (this.usageDirty) this.stores.agent.write(this.agent);
    this.usageDirty = false;
    flushSessionStores(this.stores);
  }

  /** What is pending (a streaming turn's, a failed call's) is written within PENDING_FLUSH_MS. */
  flushSoon(): void {
    if (this.flushTimer === null) this.flushAfter(PENDING_FLUSH_MS);
  }

  /**
   * What is pending is written in the next task, after the answer now leaving: a commit made in
   * the answering task would hold that answer for its fsync.
   */
  flushNext(): void {
    if (this.flushTimer !== null) clearTimeout(this.flushTimer);
    this.flushAfter(0);
  }

  private flushAfter(ms: number): void {
    this.flushTimer = setTimeout(() => {
      this.flushTimer = null;
      this.flush();
    }, ms);
  }
}
