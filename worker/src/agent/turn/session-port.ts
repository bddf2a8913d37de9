import type { SessionMessage, ThinkingLevel } from "@edge-web/shared";
import type { Settings } from "../../config/resolve-settings.ts";
import type { ToolContext } from "../../tools/tool.ts";
import type { CompactionSources } from "../context/session-compaction.ts";
import type { ModelSelection } from "../model/resolve-model.ts";
import type { TokenTotals } from "../model/token-usage.ts";
import type { OutputSink } from "./output-sink.ts";
import type { SiteJobs } from "./site-tools.ts";

/** A turn in progress, remembered in storage so that a restart can close it (with the message that started it). */
export interface TurnMarker {
  messageId: string;
  user: SessionMessage;
}

/**
 * The agent's one way into its session: what its turns and compactions read of the session and
 * hand back to it (a compaction's part is CompactionSources). The session implements it
 * (session/turn-host.ts); the agent sees nothing else of the session, and what crosses is shaped
 * here, not by the session's stores.
 */
export interface SessionPort extends CompactionSources {
  /** The settings of the latest request (a follow-up runs with what is current). */
  settings(): Settings;
  selection(): ModelSelection | undefined;
  thinkingLevel(): ThinkingLevel;
  /** The model the session was created with, if any. */
  sessionModel(): string | undefined;
  /** The session's stream and history, stored copies capped. */
  sink(): OutputSink;
  sessionId(): string;
  toolContext(signal: AbortSignal | undefined): ToolContext;
  /** Maps and crawls in this session, for the turn's map and crawl tools. */
  siteJobs(): SiteJobs;
  /** How requests reach a model provider (the sidecar's relay, under that provider's policy). */
  egress(provider: string): typeof globalThis.fetch;
  addUsage(tokens: TokenTotals, cost: number): void;
  /** Keeps the running turn's marker, written in the next task without holding anything back. */
  markTurn(marker: TurnMarker): void;
  /**
   * The turn is over: its marker goes and what it left pending is written, in one storage commit
   * in the next task, once what this one sends (its last frames) has gone out.
   */
  endTurn(): void;
}
