import type { Env } from "../env.ts";
import type { SessionObject } from "./session-object.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The session's Durable Object, or undefined when the id cannot name a session. */
export function sessionStub(env: Env, sessionId: string) {
  if (!UUID.test(sessionId)) return undefined;
  const sessions = env.SESSIONS as DurableObjectNamespace<SessionObject>;
  return sessions.get(sessions.idFromName(sessionId.toLowerCase()));
}
