import type { UserModelMessage } from "ai";

/** What became of a steer: sent with one of the turn's model calls, or not (the turn ended or was aborted first). */
export type SteerOutcome = { type: "delivered" } | { type: "not-delivered"; reason: "aborted" | "ended" };

interface Waiting {
  id: string;
  message: UserModelMessage;
  resolve(outcome: SteerOutcome): void;
}

/** User messages sent while a turn runs, each joining the turn's next model call. */
export class TurnSteers {
  private waiting: Waiting[] = [];
  private over = false;
  private readonly taken: (ids: string[]) => void;

  /** `taken`: told the ids of the steers a model call takes, as it takes them (the queue shows them joining there). */
  constructor(taken: (ids: string[]) => void) {
    this.taken = taken;
  }

  /** Resolves when the message was sent to the model, or when the turn ended without sending it. */
  steer(message: UserModelMessage, id: string): Promise<SteerOutcome> {
    if (this.over) return Promise.resolve({ type: "not-delivered", reason: "ended" });
    return new Promise((resolve) => this.waiting.push({ id, message, resolve }));
  }

  get pending(): boolean {
    return this.waiting.length > 0;
  }

  /** The messages waiting, for the model call about to be made: each is delivered. */
  take(): Array<{ id: string; message: UserModelMessage }> {
    const taken = this.waiting;
    this.waiting = [];
    if (taken.length > 0) this.taken(taken.map((steer) => steer.id));
    for (const steer of taken) steer.resolve({ type: "delivered" });
    return taken;
  }

  /** The turn is over: what still waits was not delivered. */
  end(aborted: boolean): void {
    this.over = true;
    const left = this.waiting;
    this.waiting = [];
    for (const steer of left) steer.resolve({ type: "not-delivered", reason: aborted ? "aborted" : "ended" });
  }
}
