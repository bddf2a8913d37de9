import type { UserModelMessage } from "ai";
import type { SessionMessage, UiMessageChunk } from "@edge-web/shared";
import { ApprovalGate } from "./approval-gate.ts";
import { MessageQueue } from "./message-queue.ts";
import { textOf } from "../context/message-text.ts";
import { TurnSteers } from "./turn-steers.ts";

/** What a running turn is controlled by: its abort, its steers, its approvals, and the session's queue (shown in its message). */
export interface TurnControl {
  signal: AbortSignal;
  steers: TurnSteers;
  gate: ApprovalGate;
  queue: MessageQueue;
}

/** How a message sent while a turn runs joins it: before the turn's next model call, or as a turn of its own after it. */
export type Delivery = "steer" | "followUp";

/**
 * A message's place, taken before the message is built (building awaits storage). Exactly one of
 * `hand` or `release` is called.
 */
export interface Admission {
  /** True when the message starts a turn (the turn is reserved for it): the caller checks a model is configured. */
  readonly starts: boolean;
  /** The built message goes in: it starts the reserved turn, steers the running one, or waits. Answers a started turn's end. */
  hand(user: SessionMessage, model: () => UserModelMessage): Promise<void> | undefined;
  /** The message was not built: a reserved turn is given back (a follow-up waiting behind it starts). */
  release(): Promise<void> | undefined;
}

interface Running {
  abort: AbortController;
  control: TurnControl;
  done: Promise<void>;
}

/** How long an aborted turn may take to wind down before abort() answers anyway. */
const ABORT_WAIT_MS = 1_000;

/**
 * A session's turns, one at a time. Whether a message starts a turn, steers the running one,
 * follows it up or is refused is decided in one synchronous step (`admit`), so two messages sent at
 * once never both start a turn. Steers join the running turn before its next model call;
 * follow-ups wait and run as turns of their own; an abort cancels the turn and what is queued. A
 * steer that never got delivered (the turn ended first) runs as a follow-up. What waits is shown
 * as it changes (message-queue.ts).
 */
export class AgentLoop {
  private turn: Running | undefined;
  /** The next turn, reserved by a message still being built. */
  private reserved = false;
  private readonly followUps: SessionMessage[] = [];
  private readonly steers = new Set<Promise<unknown>>();

  private readonly run: (user: SessionMessage, control: TurnControl) => Promise<void>;
  private readonly queue: MessageQueue;

  /**
   * `run` runs one turn for a user message (not yet in the history) and resolves when it has ended;
   * `stream` takes the queue's changes while no turn's message is open.
   */
  constructor(run: (user: SessionMessage, control: TurnControl) => Promise<void>, stream: (chunk: UiMessageChunk) => void) {
    this.run = run;
    this.queue = new MessageQueue(stream);
  }

  /** A turn runs, or a message that will start one is being built. */
  get running(): boolean {
    return this.turn !== undefined || this.reserved;
  }

  /** Messages waiting: steers not yet delivered, and follow-ups. */
  pending(): number {
    return this.steers.size + this.followUps.length;
  }

  /** The approvals of the running turn, if any. */
  gate(): ApprovalGate | undefined {
    return this.turn?.control.gate;
  }

  /**
   * A message's place: when idle it reserves the next turn (whatever the delivery); while a turn
   * runs it steers or follows up as asked, and without a delivery it is refused (undefined).
   */
  admit(delivery: Delivery | undefined): Admission | undefined {
    if (!this.running) {
      this.reserved = true;
      return {
        starts: true,
        hand: (user) => {
          this.reserved = false;
          return this.start(user);
        },
        release: () => {
          this.reserved = false;
          return this.next();
        },
      };
    }
    if (!delivery) return undefined;
    return {
      starts: false,
      hand: (user, model) => (delivery === "steer" ? this.steer(user, model()) : this.followUp(user)),
      release: () => undefined,
    };
  }

  /** Cancels the running turn (its model stream and tool calls) and drops what waits; answers once it is idle or after a second. */
  async abort(): Promise<void> {
    const turn = this.turn;
    this.followUps.length = 0;
    this.queue.clear();
    if (!turn) return;
    turn.abort.abort();
    turn.control.gate.cancelAll();
    await Promise.race([turn.done, new Promise((resolve) => setTimeout(resolve, ABORT_WAIT_MS))]);
  }

  /** Starts a turn at once; only when none runs. Resolves when it (and what it queued) has ended. */
  private start(user: SessionMessage): Promise<void> {
    const abort = new AbortController();
    const control = { signal: abort.signal, steers: new TurnSteers((ids) => this.queue.deliver(ids)), gate: new ApprovalGate(), queue: this.queue };
    const done = this.run(user, control)
      // Only the error's name: messages of provider errors may quote what the provider sent.
      .catch((error: unknown) => console.error("turn failed", error instanceof Error ? error.name : typeof error))
      .then(() => {
        control.steers.end(abort.signal.aborted);
        return this.ended();
      });
    this.turn = { abort, control, done };
    return done;
  }

  /** Joins the running turn; waits behind a turn still being reserved; starts one when the turn has ended meanwhile. */
  private steer(user: SessionMessage, message: UserModelMessage): Promise<void> | undefined {
    const turn = this.turn;
    if (!turn) return this.followUp(user);
    this.queue.add("steering", user.id, textOf(user));
    const outcome = turn.control.steers.steer(message, user.id).then((result) => {
      this.steers.delete(outcome);
      if (result.type === "not-delivered" && result.reason !== "aborted") {
        this.followUps.unshift(user);
        this.queue.toFollowUp(user.id);
      }
    });
    this.steers.add(outcome);
    return undefined;
  }

  private followUp(user: SessionMessage): Promise<void> | undefined {
    if (!this.running) return this.start(user);
    this.followUps.push(user);
    this.queue.add("followUp", user.id, textOf(user));
    return undefined;
  }

  /** The next follow-up, when nothing runs. */
  private next(): Promise<void> | undefined {
    if (this.running) return undefined;
    const next = this.followUps.shift();
    if (!next) return undefined;
    this.queue.remove(next.id);
    return this.start(next);
  }

  private async ended(): Promise<void> {
    // Steers learn whether they were delivered when the run ends.
    await Promise.all(this.steers);
    this.turn = undefined;
    await this.next();
  }
}
