import type { ModelMessage } from "ai";
import { compactView, type CompactionDeps } from "./compact-view.ts";
import type { ContextMeter } from "./context-meter.ts";
import { summaryMessage, type ContextView } from "./context-view.ts";

/** A language model prompt as the provider layer takes it (system messages first). */
type Prompt = Array<{ role: string; content: unknown }>;

/** How many prompt messages `messages` become: the AI SDK merges consecutive tool messages into one. */
function promptCount(messages: readonly ModelMessage[]): number {
  return messages.filter((m, i) => !(m.role === "tool" && messages[i - 1]?.role === "tool")).length;
}

/**
 * A turn's model context: before every model call it brings the view up to date (the steps' new
 * messages, each assistant step a place the history may be cut) and compacts when the estimate
 * passes the threshold; after a call it records the provider's usage; on a context-length refusal
 * it compacts once and rewrites the refused prompt for the one retry.
 */
export class TurnContext {
  private known: ContextView;
  /** A compaction made for a retry: the next step's messages still begin with `from`. */
  private replaced?: { from: ModelMessage[]; to: ContextView };
  /** What the latest call sent (usage is recorded against it). */
  private sent: ModelMessage[];
  private readonly deps: CompactionDeps & { meter: ContextMeter; turnMessageId: string };

  constructor(initial: ContextView, deps: CompactionDeps & { meter: ContextMeter; turnMessageId: string }) {
    this.known = initial;
    this.sent = initial.messages;
    this.deps = deps;
  }

  /** The messages the call of `stepNumber` sends instead of `messages`, when they differ. */
  async prepare(stepNumber: number, messages: ModelMessage[], signal: AbortSignal): Promise<ModelMessage[] | undefined> {
    let base = this.known;
    let current = messages;
    let changed = false;
    const replaced = this.replaced;
    if (replaced && messages[0] === replaced.from[0] && messages.length >= replaced.from.length) {
      current = [...replaced.to.messages, ...messages.slice(replaced.from.length)];
      base = { messages: replaced.to.messages, origins: replaced.to.origins };
      changed = true;
    }
    this.replaced = undefined;
    const added = current.slice(base.messages.length);
    const sameStart = current[0] === base.messages[0];
    // The previous step's answer is the added assistant message: a place to cut, at that step.
    let stepSeen = false;
    const addedOrigins = added.map((m) => {
      if (m.role !== "assistant" || stepSeen || stepNumber === 0) return undefined;
      stepSeen = true;
      return { messageId: this.deps.turnMessageId, step: stepNumber - 1 };
    });
    this.known = sameStart ? { messages: current, origins: [...base.origins, ...addedOrigins] } : { messages: current, origins: current.map(() => undefined) };
    this.sent = this.known.messages;
    const { limits, baseChars, meter } = this.deps;
    if (limits.enabled) {
      const estimate = meter.estimate(baseChars, current);
      if (estimate > limits.threshold) {
        const compacted = await compactView(this.known, "threshold", estimate, this.deps, signal);
        if (compacted.ok) {
          this.known = compacted.view;
          this.sent = compacted.view.messages;
          return compacted.view.messages;
        }
      }
    }
    return changed ? current : undefined;
  }

  /** The provider's input tokens for the latest call. */
  recordUsage(inputTokens: number | undefined): void {
    this.deps.meter.record(this.sent, inputTokens);
  }

  /** After a context-length refusal: one compaction, and the refused prompt rewritten to match; undefined when nothing could be cut. */
  async overflow(signal: AbortSignal): Promise<((prompt: Prompt) => Prompt) | undefined> {
    const from = this.known;
    const estimate = this.deps.meter.estimate(this.deps.baseChars, from.messages);
    const compacted = await compactView(from, "overflow", estimate, this.deps, signal);
    if (!compacted.ok) return undefined;
    this.replaced = { from: from.messages, to: compacted.view };
    this.known = compacted.view;
    this.sent = compacted.view.messages;
    const dropped = promptCount(from.messages.slice(0, compacted.cut));
    const summary = summaryMessage(compacted.entry.summary);
    return (prompt) => {
      let lead = 0;
      while (prompt[lead]?.role === "system") lead++;
      return [...prompt.slice(0, lead), { role: "user", content: summary.content }, ...prompt.slice(lead + dropped)];
    };
  }
}
