import { TOOL_NAMES, type StoredResult } from "@edge-web/shared";
import { convertToModelMessages, jsonSchema, type ModelMessage, type ToolSet, type UIMessage } from "ai";
import type { SessionMessage } from "@edge-web/shared";
import { toBase64 } from "../../attachments/base64url.ts";
import { cutText } from "../../tools/cap-content.ts";
import type { CompactionEntry } from "./compact-view.ts";
import { summaryMessage, type ContextView, type Origin } from "./context-view.ts";
import type { HistoryMemo, Revision } from "./history-memo.ts";
import { modelOutputOf } from "./tool-result-budget.ts";

/** What the history's references resolve to. */
export interface HistorySources {
  /** An attachment of this session, or undefined when it is gone. */
  attachment(id: string): Promise<{ mimeType: string; bytes: Uint8Array } | undefined>;
  storedResult(responseId: string): StoredResult | undefined;
  /** How much of a mentioned result the model gets (web.maxContentChars). */
  maxMentionChars: number;
  /** How much of one tool result the model gets (settings.agent.maxToolResultChars, within the window). */
  maxToolResultChars: number;
}

/** A message converted: its pieces, each as the model's messages and where it starts. */
export type ConvertedMessage = Array<{ origin: Origin | undefined; messages: ModelMessage[] }>;

/** The history to convert: its messages by revision, how to read those not remembered, and what is remembered. */
export interface HistoryRead {
  revisions: Revision[];
  read(ids: readonly string[]): SessionMessage[];
  memo: HistoryMemo<ConvertedMessage>;
}

/** The part of a compaction the history's conversion needs. */
export type CompactionPoint = Pick<CompactionEntry, "summary" | "firstKeptMessageId" | "firstKeptStep">;

/** File parts of the history point at attachments so: `attachment:<id>`. */
const ATTACHMENT_URL = /^attachment:(att_[A-Za-z0-9_-]+)$/;

/** The attachment a history part points at, if it is such a file part. */
export function attachmentIdOf(part: SessionMessage["parts"][number]): string | undefined {
  return part.type === "file" && typeof part.url === "string" ? ATTACHMENT_URL.exec(part.url)?.[1] : undefined;
}
const MENTION = /@([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/gi;

/** A piece of the history converted on its own, and where it starts (undefined: not a place to cut). */
interface Piece {
  message: SessionMessage;
  origin: Origin | undefined;
}

/** The texts of the steers a part of an assistant message says joined the turn there. */
export function steersOf(part: SessionMessage["parts"][number]): string[] {
  const data = part.data as { delivered?: unknown; text?: unknown } | undefined;
  if (part.type === "data-pi-queue") return Array.isArray(data?.delivered) ? data.delivered.map(String) : [];
  return part.type === "data-steer" ? [String(data?.text ?? "")] : [];
}

/**
 * A message as the pieces the model's messages come from: a user message whole; an assistant
 * message step by step (a step's tool calls with their results), the steers delivered between them
 * (a `data-pi-queue` part's `delivered`; a `data-steer` part in histories written before) as the
 * user's turns.
 */
function piecesOf(message: SessionMessage): Piece[] {
  if (message.role !== "assistant") return [{ message, origin: { messageId: message.id, step: 0 } }];
  const out: Piece[] = [];
  let parts: SessionMessage["parts"] = [];
  let origin: Origin | undefined;
  let step = -1;
  const close = () => {
    if (parts.some((part) => part.type !== "step-start" && !part.type.startsWith("data-"))) out.push({ message: { ...message, id: `${message.id}#${out.length}`, parts }, origin });
    parts = [];
  };
  for (const part of message.parts) {
    if (part.type === "step-start") {
      close();
      origin = { messageId: message.id, step: ++step };
    } else if (steersOf(part).length > 0) {
      close();
      for (const text of steersOf(part)) out.push({ message: { id: `${message.id}#${out.length}`, role: "user", parts: [{ type: "text", text }] }, origin: undefined });
      origin = undefined;
      continue;
    }
    parts.push(part);
  }
  close();
  return out;
}

/** The pieces the model sees: after the compaction's first kept step, when it still names one. */
function keptPieces<P extends { origin: Origin | undefined }>(pieces: P[], compaction: CompactionPoint | undefined): P[] | undefined {
  if (!compaction) return undefined;
  const at = pieces.findIndex((p) => p.origin?.messageId === compaction.firstKeptMessageId && p.origin.step === compaction.firstKeptStep);
  return at < 0 ? undefined : pieces.slice(at);
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

/** Tool results in the history as the model got them when they came: within the budget. */
function budgetedTools(maxChars: number): ToolSet {
  const toModelOutput = ({ input, output }: { input: unknown; output: unknown }) => modelOutputOf(output, input, maxChars);
  return Object.fromEntries(TOOL_NAMES.map((name) => [name, { inputSchema: jsonSchema({}), toModelOutput }])) as unknown as ToolSet;
}

/** A message as the model's messages, piece by piece. */
async function convert(message: SessionMessage, sources: HistorySources, tools: ToolSet): Promise<ConvertedMessage> {
  return Promise.all(
    piecesOf(message).map(async (piece) => {
      const prepared = await resolveFiles(piece.message, sources);
      const messages = await convertToModelMessages([prepared] as unknown as UIMessage[], { tools, ignoreIncompleteToolCalls: true, convertDataPart: () => undefined });
      return { origin: piece.origin, messages };
    }),
  );
}

/**
 * The session's history as the model's messages, each with where it starts: steered messages as
 * user turns, attachments as images or text, @<responseId> mentions with the stored results they
 * name, tool calls the user made directly (POST /tools) as the tool calls and results they were,
 * tool results within the budget. Calls a restart cut short are left out. After a compaction the
 * model gets its summary and the history from its first kept step. A message converted before, at
 * the same revision and budget, is not read again (mentions are looked up anew each time; a
 * message with attachments is converted each time, as its files may be gone).
 */
export async function toModelMessages(history: HistoryRead, sources: HistorySources, compaction?: CompactionPoint): Promise<ContextView> {
  const { memo } = history;
  const budget = sources.maxToolResultChars;
  const known = history.revisions.map((m) => memo.get(m, budget));
  const read = new Map(history.read(history.revisions.filter((_, i) => !known[i]).map((m) => m.id)).map((message) => [message.id, message]));
  const tools = budgetedTools(budget);
  const converted = await Promise.all(
    history.revisions.map(async (m, i) => {
      const kept = known[i];
      if (kept) return kept;
      const message = read.get(m.id);
      if (!message) return [];
      const made = await convert(message, sources, tools);
      if (!message.parts.some((part) => attachmentIdOf(part))) memo.set(m, budget, made);
      return made;
    }),
  );
  memo.retain(history.revisions);
  const all = converted.flat();
  const kept = keptPieces(all, compaction);
  const flat = (kept ?? all).flatMap((piece) => piece.messages.map((message, i) => ({ message: withMentions(message, sources), origin: i === 0 ? piece.origin : undefined })));
  const view: ContextView = { messages: flat.map((m) => m.message), origins: flat.map((m) => m.origin) };
  if (!kept || !compaction) return view;
  return { messages: [summaryMessage(compaction.summary), ...view.messages], origins: ["summary", ...view.origins] };
}

/** A user message with the stored results its text mentions. */
function withMentions(message: ModelMessage, sources: HistorySources): ModelMessage {
  if (message.role !== "user") return message;
  const text = typeof message.content === "string" ? message.content : message.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
  const extra = mentions(text, sources);
  if (extra.length === 0) return message;
  const content = typeof message.content === "string" ? [{ type: "text" as const, text: message.content }] : message.content;
  return { ...message, content: [...content, ...extra.map((more) => ({ type: "text" as const, text: more }))] };
}
