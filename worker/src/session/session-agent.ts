import { AgentLoop } from "../agent/turn/agent-loop.ts";
import { runTurn } from "../agent/turn/run-turn.ts";
import { ManualCompaction } from "./manual-compaction.ts";
import type { SessionParts } from "./session-parts.ts";
import type { SessionStores } from "./session-stores.ts";
import { TurnHost } from "./turn-host.ts";
import { TurnRecovery } from "./turn-recovery.ts";

/**
 * The session's agent: its turns, one at a time (`loop`), the session as they reach it (`host`),
 * the marker a running turn leaves and the closing of one a restart cut short (`recovery`), and
 * compactions asked for (`compaction`). Messages, commands, forks and UI answers are plain modules
 * beside it (admit-message.ts, prompt-or-command.ts, fork-history.ts, ui-answers.ts, completion-answer.ts).
 */
export class SessionAgent {
  readonly parts: SessionParts;
  readonly recovery: TurnRecovery;
  readonly host: TurnHost;
  readonly loop: AgentLoop;
  readonly compaction: ManualCompaction;

  constructor(parts: SessionParts) {
    this.parts = parts;
    const { held, stream, storage } = parts;
    this.recovery = new TurnRecovery(storage, held);
    this.host = new TurnHost(parts, this.recovery);
    // Between turns the queue's changes go on the stream alone (they carry no page content to cap).
    this.loop = new AgentLoop(
      (user, control) => runTurn(this.host, user, control),
      (chunk) => held.stores && stream.sink(held.stores, () => Number.POSITIVE_INFINITY).chunk(chunk),
    );
    this.compaction = new ManualCompaction(parts, this.loop, this.host);
  }

  /** POST /abort: a compaction asked for stops, the model stream is closed, tool calls in flight cancelled, queued messages dropped. */
  async abort(): Promise<void> {
    this.compaction.abort();
    await this.loop.abort();
  }

  /** Closes a turn a restart cut short, unless a turn runs. */
  recover(stores: SessionStores): void {
    this.recovery.recover(stores, this.parts.stream, this.loop.running);
  }
}
