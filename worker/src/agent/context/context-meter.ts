import type { CompactionSettings } from "@edge-web/shared";
import type { ModelMessage } from "ai";

/** The estimate's rate: a token for every 4 characters of JSON (conservative for English prose; see docs/agent.md). */
export const CHARS_PER_TOKEN = 4;
export const tokensOfChars = (chars: number) => Math.ceil(chars / CHARS_PER_TOKEN);

/**
 * What an image counts for, in characters: providers bill an image by its pixels, not its bytes
 * (about 1,600 tokens at most for one within Anthropic's and OpenAI's default sizes), so its data
 * is left out of the JSON measured and this counted instead.
 */
export const IMAGE_CHARS = 1_600 * CHARS_PER_TOKEN;

/** Below this many tokens per character the provider's input count is not believed (see ContextMeter.record). */
const LEAST_TOKENS_PER_CHAR = 1 / 16;

const sizes = new WeakMap<object, number>();

/** A user message's images (its file parts: only images go to the model as files) count IMAGE_CHARS each. */
function measure(message: ModelMessage): number {
  if (message.role !== "user" || typeof message.content === "string") return JSON.stringify(message).length;
  let images = 0;
  const content = message.content.map((part) => {
    if (part.type === "text") return part;
    images++;
    return { ...part, ...(part.type === "image" ? { image: "" } : { data: "" }) };
  });
  return images === 0 ? JSON.stringify(message).length : JSON.stringify({ ...message, content }).length + images * IMAGE_CHARS;
}

/** A message's size as JSON with images at IMAGE_CHARS, remembered per message object (a turn's messages are measured once). */
export function charsOf(message: ModelMessage): number {
  let size = sizes.get(message);
  if (size === undefined) {
    size = measure(message);
    sizes.set(message, size);
  }
  return size;
}

export const charsOfAll = (messages: readonly ModelMessage[]) => messages.reduce((n, m) => n + charsOf(m), 0);

/**
 * The size of what a model call is about to send, in tokens: the provider's `usage.input` of the
 * previous call plus chars/4 of the messages added since, when the messages begin with what that
 * call sent (compared by size, so a history rebuilt for the next turn still matches); otherwise
 * chars/4 of everything (system prompt and tool definitions included).
 */
export class ContextMeter {
  private last?: { count: number; chars: number; inputTokens: number };

  estimate(baseChars: number, messages: readonly ModelMessage[]): number {
    const last = this.last;
    if (last && messages.length >= last.count && charsOfAll(messages.slice(0, last.count)) === last.chars) {
      return last.inputTokens + tokensOfChars(charsOfAll(messages.slice(last.count)));
    }
    return tokensOfChars(baseChars + charsOfAll(messages));
  }

  /**
   * What a call sent and the input tokens the provider reported for it. A count below a token per
   * 16 characters of what was sent is forgotten like a missing one: no tokeniser packs text that
   * tightly, and servers that report only uncached tokens, or a constant, would otherwise keep a
   * growing history from ever being compacted.
   */
  record(messages: readonly ModelMessage[], inputTokens: number | undefined): void {
    const chars = charsOfAll(messages);
    this.last = inputTokens === undefined || inputTokens <= 0 || inputTokens < chars * LEAST_TOKENS_PER_CHAR ? undefined : { count: messages.length, chars, inputTokens };
  }
}

/** The compaction settings as they apply to one model's window: reserve and kept tail at most a quarter and a third of it. */
export interface ContextLimits {
  enabled: boolean;
  window: number;
  reserve: number;
  keep: number;
  /** Compaction runs before a call estimated above this. */
  threshold: number;
  /** The most of one tool result the model's context gets (characters). */
  maxToolResultChars: number;
  /** The summary's own limit (output tokens). */
  summaryTokens: number;
}

export function contextLimits(compaction: CompactionSettings, maxToolResultChars: number, contextWindow: number | undefined): ContextLimits {
  const window = contextWindow ?? compaction.defaultContextWindow;
  const reserve = Math.min(compaction.reserveTokens, Math.floor(window / 4));
  const keep = Math.min(compaction.keepRecentTokens, Math.floor(window / 3));
  return {
    enabled: compaction.enabled,
    window,
    reserve,
    keep,
    threshold: window - reserve,
    // One tool result never takes more than about a sixth of the window.
    maxToolResultChars: Math.min(maxToolResultChars, Math.floor((window * CHARS_PER_TOKEN) / 6)),
    summaryTokens: Math.max(256, Math.floor(reserve / 2)),
  };
}
