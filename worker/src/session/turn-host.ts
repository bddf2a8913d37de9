import type { LanguageModelUsage } from "ai";
import type { CompactionEntry } from "../agent/context/compact-view.ts";
import { ContextMeter } from "../agent/context/context-meter.ts";
import { HistoryMemo } from "../agent/context/history-memo.ts";
import type { ConvertedMessage, HistoryRead } from "../agent/context/to-model-messages.ts";
import type { TokenTotals } from "../agent/model/token-usage.ts";
import type { SessionPort, TurnMarker } from "../agent/turn/session-port.ts";
import type { SiteJobs } from "../agent/turn/site-tools.ts";
import { crawlStub } from "../crawl/crawl-stub.ts";
import { mapForSession } from "../crawl/map-for-session.ts";
import { startCrawl } from "../crawl/start-crawl.ts";
import { modelEgress } from "../agent/wire/model-egress.ts";
import type { Settings } from "../config/resolve-settings.ts";
import { keepCompaction } from "./keep-compaction.ts";
import type { SessionParts } from "./session-parts.ts";
import type { SessionStores } from "./session-stores.ts";
import type { TurnRecovery } from "./turn-recovery.ts";

/** The session as its agent reaches it (agent/turn/session-port.ts): its settings, history, stream, tools, usage and marker. */
export class TurnHost implements SessionPort {
  /** The size of what the session's model calls send, known from their usage (docs/agent.md). */
  readonly meter = new ContextMeter();
  private readonly parts: SessionParts;
  private readonly recovery: TurnRecovery;
  /** The history as the model last saw it, per history (a session's stores are replaced when it is reset). */
  private readonly memos = new WeakMap<SessionStores, HistoryMemo<ConvertedMessage>>();
  /** Summaries being made now (state.isCompacting). */
  private summaries = 0;

  constructor(parts: SessionParts, recovery: TurnRecovery) {
    this.parts = parts;
    this.recovery = recovery;
  }

  /** A summary is being made (state.isCompacting). */
  get isCompacting(): boolean {
    return this.summaries > 0;
  }

  settings(): Settings {
    return this.parts.held.settings!;
  }

  selection() {
    return this.parts.held.agent.selection;
  }

  thinkingLevel() {
    return this.parts.held.thinkingLevel();
  }

  sessionModel(): string | undefined {
    return this.parts.held.current?.model;
  }

  history(from?: string): HistoryRead {
    const stores = this.parts.held.stores;
    if (!stores) return { revisions: [], read: () => [], memo: new HistoryMemo() };
    let memo = this.memos.get(stores);
    if (!memo) this.memos.set(stores, (memo = new HistoryMemo()));
    return { revisions: stores.messages.revisions(from), read: (ids) => stores.messages.read(ids), memo };
  }

  sink() {
    return this.parts.stream.sink(this.parts.held.stores!, () => this.settings().config.maxStoredContentChars);
  }

  sessionId(): string {
    return this.parts.held.current?.sessionId ?? "";
  }

  toolContext(signal: AbortSignal | undefined) {
    return this.parts.tools.context(this.parts.held.stores!, this.settings(), signal);
  }

  siteJobs(): SiteJobs {
    const { env } = this.parts;
    const sessionId = this.sessionId();
    const config = () => this.settings().config;
    return {
      map: (params) => mapForSession(env, sessionId, params, config()),
      startCrawl: (params) => startCrawl(env, { sessionId, owner: this.parts.held.current?.owner ?? "open" }, params, config()),
      readCrawl: async (crawlId) => crawlStub(env, crawlId)?.read(sessionId, 0),
    };
  }

  egress(provider: string): typeof globalThis.fetch {
    return modelEgress(this.parts.env, this.settings(), provider);
  }

  async attachment(id: string) {
    const file = await this.parts.tools.attachmentFile(id);
    return file && { mimeType: file.mimeType, bytes: file.bytes };
  }

  storedResult(responseId: string) {
    return this.parts.held.stores?.results.get(responseId);
  }

  addUsage(tokens: TokenTotals, cost: number): void {
    this.parts.held.addUsage(tokens, cost);
  }

  markTurn(marker: TurnMarker): void {
    this.recovery.mark(marker);
  }

  endTurn(): void {
    this.recovery.end();
  }

  newId(): string {
    return crypto.randomUUID();
  }

  latestCompaction(): CompactionEntry | undefined {
    return this.parts.held.stores?.compactions.latest();
  }

  keepCompaction(entry: CompactionEntry, usage: LanguageModelUsage | undefined): void {
    keepCompaction(this.parts.held, entry, usage);
  }

  compacting(on: boolean): void {
    this.summaries += on ? 1 : -1;
  }
}
