import type { HeldSession } from "./held-session.ts";
import type { SessionStream } from "./session-stream.ts";

/**
 * Idle sessions end: the object's alarm is set once, moved only when it fires (no alarm write per
 * call), and ends a session that saw no activity for `idleMs` — results and history go, a record
 * stays so that the session answers 409 SESSION_ENDED.
 */
export class IdleAlarm {
  private set = false;
  private readonly storage: DurableObjectStorage;
  private readonly idleMs: number;

  constructor(storage: DurableObjectStorage, idleMs: number) {
    this.storage = storage;
    this.idleMs = idleMs;
  }

  /** Makes sure the alarm is set. Activity is marked when a call's writes are flushed. */
  async touch(): Promise<void> {
    if (this.set) return;
    if ((await this.storage.getAlarm()) === null) await this.storage.setAlarm(Date.now() + this.idleMs);
    this.set = true;
  }

  /** The alarm fired: a busy or recently used session moves it on, an idle one ends. */
  async fire(held: HeldSession, stream: SessionStream, busy: boolean): Promise<void> {
    const stores = held.stores;
    if (!stores || held.current?.status !== "active") return;
    const deadline = busy ? Date.now() + this.idleMs : stores.activity.last() + this.idleMs;
    if (deadline > Date.now()) {
      await this.storage.setAlarm(deadline);
      return;
    }
    this.set = false;
    held.flush();
    stores.results.clear();
    stores.messages.clear();
    stores.latency.clear();
    held.current = { ...held.current, status: "ended", endedReason: "idle" };
    stores.record.write(held.current);
    stream.close(stores, "idle");
    // An ended session cannot be streamed again (409), so its replay buffer has no reader left.
    stores.frames.clear();
  }

  /** The session is deleted: no alarm stays behind. */
  async clear(): Promise<void> {
    await this.storage.deleteAlarm();
  }
}
