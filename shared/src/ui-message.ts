import type { ToolName } from "./tool-schemas.ts";

/** A message of a session's history: an AI SDK UIMessage (user, assistant; text, reasoning, file, tool and data parts). */
export interface SessionMessage {
  id: string;
  role: "user" | "assistant" | "system";
  parts: Array<{ type: string } & Record<string, unknown>>;
  metadata?: unknown;
}

/** A direct tool call as an AI SDK UI message: one assistant message with one tool part. */
export interface ToolUiMessage {
  id: string;
  role: "assistant";
  parts: Array<{
    type: `tool-${ToolName}`;
    toolCallId: string;
    state: "input-available" | "output-available" | "output-error";
    input: unknown;
    output?: unknown;
    errorText?: string;
  }>;
  metadata: { createdAt: number };
}
