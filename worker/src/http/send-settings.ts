import type { Settings } from "../config/resolve-settings.ts";
import type { NeedSettings } from "../session/need-settings.ts";
import { setBounded } from "../set-bounded.ts";

/** The settings id each session object was last sent by this isolate (a bounded memory; forgetting costs one fuller call). */
const sent = new Map<string, string>();
const SENT_CAPACITY = 10_000;

/**
 * One round trip to a session object carrying only the settings' id when the object should hold
 * them already, the settings themselves otherwise (one more round trip when it has lost them).
 * The object then keeps one settings object per id, so what it builds per settings is built once.
 */
export async function sendSettings<T extends object>(sessionId: string, settings: Settings, call: (settings: Settings | string) => Promise<T | NeedSettings>): Promise<T> {
  if (sent.get(sessionId) === settings.id) {
    const answer = await call(settings.id);
    if (!("needSettings" in answer)) return answer;
  }
  const answer = (await call(settings)) as T;
  setBounded(sent, sessionId, settings.id, SENT_CAPACITY);
  return answer;
}
