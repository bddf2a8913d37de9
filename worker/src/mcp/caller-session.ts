import { ownerId, type Principal } from "../auth/principal.ts";
import type { Env } from "../env.ts";
import { sessionStub } from "../session/session-stub.ts";
import type { SessionStub } from "../http/session-access.ts";

/** The caller's MCP session id, kept in KV so every isolate (and a restart) finds the same session. */
const mcpSessionKey = (owner: string) => `mcp-session:${owner}`;

/** Ids this isolate already resolved, so a call costs no KV read; a stale one is replaced on SESSION_NOT_FOUND / SESSION_ENDED. */
const known = new Map<string, string>();

export interface CallerSession {
  sessionId: string;
  stub: SessionStub;
}

/**
 * The session object MCP calls from this principal run in: one per API token (one for the
 * anonymous local user), created on first use and replaced once it has ended or been deleted, so
 * a `responseId` from one call is readable by the next and the calls show in that session's stats
 * and stream. `stale` is a session id that answered SESSION_NOT_FOUND or SESSION_ENDED: another
 * isolate may already have replaced it, so KV is read again before a new session is made.
 */
export async function callerSession(env: Env, principal: Principal, stale?: string): Promise<CallerSession> {
  const owner = ownerId(principal);
  const sessionId = (stale === undefined ? known.get(owner) : undefined) ?? (await env.CACHE.get(mcpSessionKey(owner))) ?? undefined;
  const stub = sessionId && sessionId !== stale ? sessionStub(env, sessionId) : undefined;
  if (sessionId && stub) {
    known.set(owner, sessionId);
    return { sessionId, stub };
  }
  const created = crypto.randomUUID();
  const createdStub = sessionStub(env, created)!;
  await createdStub.create({ sessionId: created, owner, source: "mcp" });
  await env.CACHE.put(mcpSessionKey(owner), created);
  known.set(owner, created);
  return { sessionId: created, stub: createdStub };
}
