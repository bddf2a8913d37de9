import type { CompletionItem, CompletionResponse, CompletionTrigger } from "@edge-web/shared";
import { matchingResults, type ResultLabel } from "./matching-results.ts";
import { SLASH_COMMANDS } from "./slash-commands.ts";

/** The triggers, with pi-web's rule for cutting what was typed: a command opens a line, a mention is the word the cursor ends. */
export const COMPLETION_TRIGGERS: CompletionTrigger[] = [
  { trigger: "/", extract: "lineStart", description: `Commands: ${SLASH_COMMANDS.map((c) => `/${c.name}`).join(", ")}` },
  { trigger: "@", extract: "wordTail", description: "A stored result of this session, by responseId: the model gets it with the message" },
];

/** The most items one answer holds, as in pi-web's completion registry. */
const MAX_ITEMS = 30;

function itemsFor(trigger: string, query: string, results: () => ResultLabel[]): CompletionItem[] {
  if (trigger === "/") {
    const q = query.trim().toLowerCase().replace(/^\//, "");
    return SLASH_COMMANDS.filter((c) => c.name.startsWith(q)).map((c) => ({
      providerId: "commands",
      kind: "command",
      id: c.name,
      label: c.usage,
      detail: c.description,
      insertText: `/${c.name}`,
    }));
  }
  if (trigger === "@") {
    return matchingResults(results(), query).map((r) => ({
      providerId: "results",
      kind: "result",
      id: r.responseId,
      label: r.label,
      detail: r.kind === "search" ? "web_search result" : "fetch_content result",
      insertText: `@${r.responseId}`,
    }));
  }
  return [];
}

/**
 * The items for a trigger and what was typed after it, in pi-web's shape: commands for "/", stored
 * results for "@" (newest first), with how many of each kind. A trigger that is not ours has none,
 * as pi-web's server answers one no provider serves.
 */
export function completionItems(trigger: string, query: string, results: () => ResultLabel[]): CompletionResponse {
  const items = itemsFor(trigger, query, results).slice(0, MAX_ITEMS);
  const counts = new Map<string, number>();
  for (const item of items) counts.set(item.kind, (counts.get(item.kind) ?? 0) + 1);
  return { items, groups: [...counts].map(([kind, count]) => ({ kind, count })) };
}
