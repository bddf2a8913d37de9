import type { QueueData, UiMessageChunk } from "@edge-web/shared";

interface Waiting {
  id: string;
  text: string;
  kind: "steering" | "followUp";
}

/**
 * The messages waiting for the model, as a client is shown them: steers not yet delivered and
 * follow-ups not yet started, each in the order it will be taken. Every change is a `data-pi-queue`
 * chunk (pi-web's form of pi's queue_update): inside the running turn's message while it is open, so
 * the stored message has it where the stream had it, else on the session's stream alone.
 */
export class MessageQueue {
  private waiting: Waiting[] = [];
  private message?: (chunk: UiMessageChunk) => void;
  private readonly stream: (chunk: UiMessageChunk) => void;

  /** `stream`: where changes go while no turn's message is open. */
  constructor(stream: (chunk: UiMessageChunk) => void) {
    this.stream = stream;
  }

  /** Changes go into a turn's message (`push`) until `closeMessage`. */
  openMessage(push: (chunk: UiMessageChunk) => void): void {
    this.message = push;
  }

  closeMessage(): void {
    this.message = undefined;
  }

  add(kind: Waiting["kind"], id: string, text: string): void {
    this.waiting.push({ id, text, kind });
    this.show();
  }

  /** A follow-up started as a turn of its own. */
  remove(id: string): void {
    const before = this.waiting.length;
    this.waiting = this.waiting.filter((w) => w.id !== id);
    if (this.waiting.length !== before) this.show();
  }

  /** A steer the turn ended without delivering: the next follow-up (agent-loop.ts runs it first). */
  toFollowUp(id: string): void {
    const steer = this.waiting.find((w) => w.id === id);
    if (!steer) return;
    this.waiting = [{ ...steer, kind: "followUp" }, ...this.waiting.filter((w) => w !== steer)];
    this.show();
  }

  /** Steers the turn's next model call took: they leave the queue, and the chunk says they joined the turn here. */
  deliver(ids: string[]): void {
    const taken = new Set(ids);
    const delivered = this.waiting.filter((w) => taken.has(w.id)).map((w) => w.text);
    if (delivered.length === 0) return;
    this.waiting = this.waiting.filter((w) => !taken.has(w.id));
    this.show(delivered);
  }

  /** An abort: nothing waits any more. */
  clear(): void {
    if (this.waiting.length === 0) return;
    this.waiting = [];
    this.show();
  }

  private show(delivered?: string[]): void {
    const data: QueueData = {
      steering: this.waiting.filter((w) => w.kind === "steering").map((w) => w.text),
      followUp: this.waiting.filter((w) => w.kind === "followUp").map((w) => w.text),
      ...(delivered && { delivered }),
    };
    (this.message ?? this.stream)({ type: "data-pi-queue", data });
  }
}
