import type { StoredResult } from "@edge-web/shared";
import { convertToModelMessages, type ModelMessage, type UIMessage } from "ai";
import type { SessionMessage } from "@edge-web/shared";
import { toBase64 } from "../attachments/base64url.ts";
import { cutText } from "../tools/cap-content.ts";

/** What the history's references resolve to. */
export interface HistorySources {
  /** An attachment of this session, or undefined when it is gone. */
  attachment(id: string): Promise<{ mimeType: string; bytes: Uint8Array } | undefined>;
  storedResult(responseId: string): StoredResult | undefined;
  /** How much of a mentioned result the model gets (web.maxContentChars). */
  maxMentionChars: number;
}

/** File parts of the history point at attachments so: `attachment:<id>`. */
const ATTACHMENT_URL = /^attachment:(att_[A-Za-z0-9_-]+)$/;

/** The attachment a history part points at, if it is such a file part. */
export function attachmentIdOf(part: SessionMessage["parts"][number]): string | undefined {
  return part.type === "file" && typeof part.url === "string" ? ATTACHMENT_URL.exec(part.url)?.[1] : undefined;
}
const MENTION = /@([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/gi;

/** A steered message sits inside the assistant message it interrupted; the model sees it as the user's turn. */
function splitSteering(message: SessionMessage): SessionMessage[] {
  if (message.role !== "assistant" || !message.parts.some((part) => part.type === "data-steer")) return [message];
  const out: SessionMessage[] = [];
  let parts: SessionMessage["parts"] = [];
  const close = () => {
    if (parts.length > 0) out.push({ ...message, id: `${message.id}#${out.length}`, parts });
    parts = [];
  };
  for (const part of message.parts) {
    if (part.type !== "data-steer") {
      parts.push(part);
      continue;
    }
    close();
    const text = String((part.data as { text?: unknown } | undefined)?.text ?? "");
    out.push({ id: `${message.id}#${out.length}`, role: "user", parts: [{ type: "text", text }] });
  }
  close();
  return out;
}

async function resolveFiles(message: SessionMessage, sources: HistorySources): Promise<SessionMessage> {
  if (message.role !== "user") return message;
  const parts = await Promise.all(
    message.parts.map(async (part) => {
      const id = attachmentIdOf(part);
      if (!id) return part;
      const file = await sources.attachment(id);
      if (!file) return { type: "text", text: `[The attached file ${String(part.filename ?? id)} is no longer available.]` };
      return { ...part, url: `data:${file.mimeType};base64,${toBase64(file.bytes)}` };
    }),
  );
  return { ...message, parts };
}

/** The stored results a user's text names as @<responseId>, as text for the model. */
function mentions(text: string, sources: HistorySources): string[] {
  const ids = [...new Set([...text.matchAll(MENTION)].map((match) => match[1]!.toLowerCase()))];
  return ids.flatMap((id) => {
    const stored = sources.storedResult(id);
    if (!stored) return [`[@${id} names no stored result of this session.]`];
    return [`Stored result @${id} (the same as get_search_content with responseId ${id}):\n${cutText(JSON.stringify(stored), sources.maxMentionChars)}`];
  });
}

/**
 * The session's history as the model's messages: steered messages as user turns, attachments as
 * images or text, @<responseId> mentions with the stored results they name, and tool calls the
 * user made directly (POST /tools) as the tool calls and results they were. Calls a restart cut
 * short are left out.
 */
export async function toModelMessages(history: SessionMessage[], sources: HistorySources): Promise<ModelMessage[]> {
  const prepared = await Promise.all(history.flatMap(splitSteering).map((message) => resolveFiles(message, sources)));
  const messages = await convertToModelMessages(prepared as unknown as UIMessage[], { ignoreIncompleteToolCalls: true, convertDataPart: () => undefined });
  return messages.map((message) => {
    if (message.role !== "user") return message;
    const text = typeof message.content === "string" ? message.content : message.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
    const extra = mentions(text, sources);
    if (extra.length === 0) return message;
    const content = typeof message.content === "string" ? [{ type: "text" as const, text: message.content }] : message.content;
    return { ...message, content: [...content, ...extra.map((more) => ({ type: "text" as const, text: more }))] };
  });
}
