import { SLASH_COMMANDS } from "./slash-commands.ts";

export const COMPLETION_TRIGGERS = [
  { trigger: "/", description: `Commands: ${SLASH_COMMANDS.map((c) => `/${c.name}`).join(", ")}` },
  { trigger: "@", description: "A stored result of this session, by responseId: the model gets it with the message" },
];

export interface CompletionItem {
  value: string;
  label: string;
  description: string;
}

/** A stored result as pickers show it. */
export interface ResultSummary {
  responseId: string;
  kind: "search" | "fetch";
  label: string;
}

/** The items for a trigger and what follows it: commands for "/", stored results for "@" (newest first). */
export function completionItems(trigger: string, query: string, results: () => ResultSummary[]): CompletionItem[] | undefined {
  const q = query.trim().toLowerCase().replace(/^[/@]/, "");
  if (trigger === "/") {
    return SLASH_COMMANDS.filter((c) => c.name.startsWith(q)).map((c) => ({ value: `/${c.name}`, label: c.usage, description: c.description }));
  }
  if (trigger === "@") {
    return results()
      .filter((r) => q === "" || r.responseId.startsWith(q) || r.label.toLowerCase().includes(q))
      .map((r) => ({ value: `@${r.responseId}`, label: r.label, description: r.kind === "search" ? "web_search result" : "fetch_content result" }));
  }
  return undefined;
}
