import { ok, type CompletionResponse, type Result } from "@edge-web/shared";
import { COMPLETION_TRIGGERS, completionItems } from "../agent/commands/completion.ts";
import type { SessionStores } from "./session-stores.ts";

/** GET /completion/triggers (no trigger) and GET /completion: commands, and the session's stored results. */
export function completionAnswer(stores: SessionStores, trigger: string | undefined, query: string): Result<{ triggers: typeof COMPLETION_TRIGGERS } | CompletionResponse> {
  if (trigger === undefined) return ok({ triggers: COMPLETION_TRIGGERS });
  return ok(completionItems(trigger, query, () => stores.results.summaries()));
}
