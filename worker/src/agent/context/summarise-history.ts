import type { LanguageModel, LanguageModelUsage, ModelMessage } from "ai";
import { cutText } from "../../tools/cap-content.ts";
import { CHARS_PER_TOKEN } from "./context-meter.ts";
import { SUMMARY_HEADING } from "./context-view.ts";
import { callModel } from "../wire/call-model.ts";
import { idleTimer } from "../wire/idle-timer.ts";
import { ModelTimeoutError } from "../wire/model-fetch.ts";

/** The instruction the model summarises with; the fake models in test-support recognise a summary request by its first words. */
export const SUMMARY_PROMPT = [
  "CONTEXT CHECKPOINT. You are summarising the earlier part of a conversation between a user and a research assistant that uses web tools, so that the assistant can go on without it.",
  "Write a structured summary in Markdown with these sections:",
  "## Goal — what the user wants, in their words where it matters, and any constraints they set.",
  "## Decisions — what was decided or concluded, and why.",
  "## Sources read — every URL fetched or found, with its responseId (for get_search_content) and what it said that matters.",
  "## Progress — what has been done, what was found, and what failed.",
  "## Open questions — what is still to do or unanswered.",
  "Be specific and concise: keep numbers, names, URLs and responseIds exactly; leave out pleasantries.",
].join("\n");

/** What one tool result may take of the transcript. */
const RESULT_CHARS = 1_500;

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part: { type: string; text?: string; toolName?: string; input?: unknown; output?: { value?: unknown } }) => {
      if (part.type === "text") return part.text ?? "";
      if (part.type === "tool-call") return `[called ${part.toolName} ${JSON.stringify(part.input)}]`;
      if (part.type === "tool-result") {
        const value = part.output?.value;
        return `[${part.toolName} answered: ${cutText(typeof value === "string" ? value : JSON.stringify(value), RESULT_CHARS)}]`;
      }
      if (part.type === "image" || part.type === "file") return "[a file or image]";
      return "";
    })
    .filter(Boolean)
    .join("\n");
}

/** The messages as a transcript within `maxChars`: an earlier summary and the latest messages first to stay. */
export function transcript(messages: readonly ModelMessage[], maxChars: number): string {
  const lines = messages.map((m) => {
    const text = textOf(m.content);
    return text.startsWith(SUMMARY_HEADING) ? `[earlier summary]\n${text.slice(SUMMARY_HEADING.length).trim()}` : `[${m.role}]\n${text}`;
  });
  const head = lines[0]?.startsWith("[earlier summary]") ? [lines.shift()!] : [];
  const kept: string[] = [];
  let size = head.reduce((n, l) => n + l.length, 0);
  for (let i = lines.length - 1; i >= 0; i--) {
    if (size + lines[i]!.length > maxChars) {
      kept.unshift("[older messages left out]");
      break;
    }
    size += lines[i]!.length;
    kept.unshift(lines[i]!);
  }
  return [...head, ...kept].join("\n\n");
}

export interface SummaryCall {
  /** The session's model, called as a turn's calls are (wire/call-model.ts). */
  model: LanguageModel;
  /** settings.agent.modelTimeoutMs: the summary fails when the model sends nothing for this long while it streams. */
  idleMs: number;
  window: number;
  maxOutputTokens: number;
  signal: AbortSignal;
  instructions?: string;
}

/**
 * The summary of `older` by the session's model: one streamed call without tools, made and read
 * as a turn's calls are (callModel, idleTimer); throws what the call throws. `usage` is absent
 * when the answer ended without the model saying what it used.
 */
export async function summariseHistory(older: readonly ModelMessage[], call: SummaryCall): Promise<{ summary: string; usage: LanguageModelUsage | undefined }> {
  // The request must fit the window with room for the answer and the prompt.
  const room = Math.max(2_000, (call.window - call.maxOutputTokens - 500) * CHARS_PER_TOKEN);
  const extra = call.instructions?.trim() ? `\n\nThe user asks the summary to: ${call.instructions.trim()}` : "";
  // The call's signal: the compaction's abort, or the model gone silent (which fails the summary).
  const calls = new AbortController();
  const forward = () => calls.abort(call.signal.reason);
  if (call.signal.aborted) forward();
  else call.signal.addEventListener("abort", forward, { once: true });
  let summary = "";
  let usage: LanguageModelUsage | undefined;
  try {
    const { parts } = await callModel({
      model: call.model,
      system: SUMMARY_PROMPT,
      messages: [{ role: "user", content: `<conversation>\n${transcript(older, room)}\n</conversation>\n\nSummarise the conversation above as instructed.${extra}` }],
      tools: {},
      maxOutputTokens: call.maxOutputTokens,
      abortSignal: calls.signal,
    });
    // Silence while the answer streams ends the call (the wait for it to start is the model fetch's).
    const watch = idleTimer(call.idleMs, () => calls.abort(new ModelTimeoutError(call.idleMs)));
    try {
      for await (const part of parts) {
        watch.touch();
        if (part.type === "text-delta") summary += part.text;
        else if (part.type === "model-call-end") usage = part.usage;
        else if (part.type === "error") throw part.error;
      }
    } finally {
      watch.stop();
    }
  } catch (error) {
    // A call stopped (aborted, or for its silence) fails with why, however the provider's stream words it.
    throw calls.signal.aborted ? calls.signal.reason : error;
  } finally {
    call.signal.removeEventListener("abort", forward);
  }
  summary = summary.trim();
  if (summary === "") throw new Error("the model answered an empty summary");
  return { summary, usage };
}
