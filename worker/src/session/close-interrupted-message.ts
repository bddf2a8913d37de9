import type { SessionMessage } from "@edge-web/shared";

const FINISHED = new Set(["output-available", "output-error", "output-denied"]);

/** A message a restart cut short, made consistent: its unfinished tool calls end in an `interrupted` error. */
export function closeInterruptedMessage(message: SessionMessage): SessionMessage {
  return {
    ...message,
    parts: message.parts.map((part) =>
      part.type.startsWith("tool-") && typeof part.state === "string" && !FINISHED.has(part.state)
        ? { ...part, state: "output-error", errorText: "interrupted: the session restarted before this call finished." }
        : part,
    ),
  };
}
