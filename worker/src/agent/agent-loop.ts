import { experimental_createSteering, type Experimental_Steering as Steering, type UserModelMessage } from "ai";
import type { SessionMessage } from "@edge-web/shared";
import { ApprovalGate } from "./approval-gate.ts";

/** What a running turn is controlled by. */
export interface TurnControl {
  signal: AbortSignal;
  steering: Steering;
  gate: ApprovalGate;
}

/** Runs one turn for a user message (not yet in the history); resolves when the turn has ended. */
export type TurnRunner = (user: SessionMessage, control: TurnControl) => Promise<void>;

interface Running {
  abort: AbortController;
  steering: Steering;
  gate: ApprovalGate;
  done: Promise<void>;
}

/** How long an aborted turn may take to wind down before abort() answers anyway. */
const ABORT_WAIT_MS = 1_000;

/**
 * A session's turns, one at a time: steering messages join the running turn before its next model
 * call, follow-ups wait and run as turns of their own, an abort cancels the turn and what is
 * queued. A steering message that never got delivered (the turn ended first) runs as a follow-up.
 */
export class AgentLoop {
  private turn: Running | undefined;
  private readonly followUps: SessionMessage[] = [];
  private readonly steers = new Set<Promise<unknown>>();

  private readonly runner: TurnRunner;

  constructor(runner: TurnRunner) {
    this.runner = runner;
  }

  get running(): boolean {
    return this.turn !== undefined;
  }

  /** Messages waiting: steering messages not yet delivered, and follow-ups. */
  pending(): number {
    return this.steers.size + this.followUps.length;
  }

  /** The approvals of the running turn, if any. */
  gate(): ApprovalGate | undefined {
    return this.turn?.gate;
  }

  /** Starts a turn at once; the caller has checked that none runs. Resolves when it (and what it queued) has ended. */
  start(user: SessionMessage): Promise<void> {
    const abort = new AbortController();
    const steering = experimental_createSteering();
    const gate = new ApprovalGate();
    const done = this.runner(user, { signal: abort.signal, steering, gate })
      // Only the error's name: messages of provider errors may quote what the provider sent.
      .catch((error: unknown) => console.error("turn failed", error instanceof Error ? error.name : typeof error))
      .then(() => this.ended());
    this.turn = { abort, steering, gate, done };
    return done;
  }

  /** Answers the started turn when none was running. */
  steer(user: SessionMessage, message: UserModelMessage): Promise<void> | undefined {
    const turn = this.turn;
    if (!turn) return this.start(user);
    const outcome = turn.steering.steer(message, { id: user.id }).then((result) => {
      this.steers.delete(outcome);
      if (result.type === "not-delivered" && result.reason !== "aborted") this.followUps.unshift(user);
    });
    this.steers.add(outcome);
    return undefined;
  }

  /** Answers the started turn when none was running. */
  followUp(user: SessionMessage): Promise<void> | undefined {
    if (!this.turn) return this.start(user);
    this.followUps.push(user);
    return undefined;
  }

  /** Cancels the running turn (its model stream and tool calls) and drops what waits; answers once it is idle or after a second. */
  async abort(): Promise<void> {
    const turn = this.turn;
    this.followUps.length = 0;
    if (!turn) return;
    turn.abort.abort();
    turn.gate.cancelAll();
    await Promise.race([turn.done, new Promise((resolve) => setTimeout(resolve, ABORT_WAIT_MS))]);
  }

  private async ended(): Promise<void> {
    // Steering messages learn whether they were delivered when the run ends.
    await Promise.all(this.steers);
    this.turn = undefined;
    const next = this.followUps.shift();
    if (next) await this.start(next);
  }
}
