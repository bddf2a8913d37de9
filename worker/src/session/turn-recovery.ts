import type { TurnMarker } from "../agent/turn/session-port.ts";
import { failTurn } from "../agent/turn/fail-turn.ts";
import { closeInterruptedMessage } from "./close-interrupted-message.ts";
import type { HeldSession } from "./held-session.ts";
import type { SessionStores } from "./session-stores.ts";
import type { SessionStream } from "./session-stream.ts";

/** Where the marker of a running turn is kept (the object's key-value storage). */
const TURN_KEY = "turn";

/**
 * The marker a running turn leaves in storage, and the closing of a turn a restart cut short: the
 * marker found when the object starts is closed when the session is next used.
 */
export class TurnRecovery {
  private readonly storage: DurableObjectStorage;
  private readonly held: HeldSession;
  /** A turn that was running when the object stopped. */
  private interrupted?: TurnMarker;

  constructor(storage: DurableObjectStorage, held: HeldSession) {
    this.storage = storage;
    this.held = held;
    if (held.stores) this.interrupted = storage.kv.get<TurnMarker>(TURN_KEY);
  }

  /**
   * Unconfirmed, and in the next task: the marker's commit (an fsync on local storage, on the
   * thread) never holds back the turn's first model request, the stream or the answer.
   */
  mark(marker: TurnMarker): void {
    setTimeout(() => this.storage.put(TURN_KEY, marker, { allowUnconfirmed: true }).catch(() => {}), 0);
  }

  /** One task, so one commit: the marker's removal and the turn's pending writes (apart, they were two fsyncs). */
  end(): void {
    setTimeout(() => {
      this.storage.delete(TURN_KEY, { allowUnconfirmed: true }).catch(() => {});
      this.held.flush();
    }, 0);
  }

  /**
   * For a new session, before its first turn: the first write through the key-value storage (where
   * the marker goes) creates its table and prepares its statements, a schema change after which
   * every statement run before it is prepared again. Done while the session's own tables are made,
   * that is not left to its first turn; in exchange each start of the object prepares the table's
   * statements (about 0.15 ms), as it always did for a session that had run a turn.
   */
  prepare(): void {
    this.storage.kv.delete(TURN_KEY);
  }

  /** Closes a turn a restart cut short, unless one runs: an `interrupted` error and `finish` on the stream, its message's unfinished tool calls marked. */
  recover(stores: SessionStores, stream: SessionStream, running: boolean): void {
    const marker = this.interrupted;
    if (!marker || running) return;
    this.interrupted = undefined;
    // After a restart the settings may not be known yet; these chunks carry no page content.
    const sink = stream.sink(stores, () => this.held.settings?.config.maxStoredContentChars ?? Number.POSITIVE_INFINITY);
    failTurn(sink, marker.messageId, "interrupted: the turn was cut short when the session restarted; send the message again.");
    const history = stores.messages.list();
    if (!history.some((m) => m.id === marker.user.id)) sink.message(marker.user);
    const message = history.find((m) => m.id === marker.messageId);
    if (message) sink.message(closeInterruptedMessage(message));
    this.storage.delete(TURN_KEY).catch(() => {}); // a marker left behind only closes the turn again
    this.held.flush();
  }
}
