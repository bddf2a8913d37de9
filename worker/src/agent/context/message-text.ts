import type { SessionMessage } from "@edge-web/shared";

/** A message's text parts, joined. */
export function textOf(message: SessionMessage): string {
  return message.parts.flatMap((part) => (part.type === "text" && typeof part.text === "string" ? [part.text] : [])).join("\n");
}
