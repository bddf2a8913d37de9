import { fail, ok, type Result } from "@edge-web/shared";
import { textOf } from "../agent/context/message-text.ts";
import type { SessionStores } from "./session-stores.ts";

/** GET /fork-messages: the user messages a fork can start from. */
export function forkMessages(stores: SessionStores): Result<Array<{ entryId: string; text: string }>> {
  return ok(stores.messages.list().filter((m) => m.role === "user").map((m) => ({ entryId: m.id, text: textOf(m) })));
}

/** POST /fork: cuts the history back to just before the user message `entryId`; answers its text, for an editor to prefill. */
export function forkHistory(stores: SessionStores, entryId: string, turnRunning: boolean): Result<{ text: string }> {
  if (turnRunning) return fail("SESSION_BUSY", "A turn is running; POST /abort before forking.");
  const entry = stores.messages.list().find((m) => m.id === entryId && m.role === "user");
  if (!entry) return fail("ENTRY_NOT_FOUND", `No user message "${entryId}" in this session; GET /fork-messages lists the entries.`);
  stores.messages.truncateFrom(entryId);
  // A compaction whose kept part was cut away no longer applies: the model sees what is left.
  stores.compactions.retain(new Set(stores.messages.list().map((m) => m.id)));
  return ok({ text: textOf(entry) });
}
