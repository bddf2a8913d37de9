import type { SessionMessage, UiMessageChunk } from "@edge-web/shared";
import {
  stepCountIs,
  experimental_streamTextLowMemory as streamText,
  toUIMessageChunk,
  type Experimental_Steering as Steering,
  type LanguageModel,
  type LanguageModelUsage,
  type ModelMessage,
  type ToolSet,
} from "ai";
import { describeModelError } from "./describe-model-error.ts";
import { MessageAssembly } from "./message-assembly.ts";
import type { ModelCall } from "./model-provider.ts";
import type { OutputSink } from "./output-sink.ts";
import { toProtocolChunk } from "./to-protocol-chunk.ts";

/** What the AI SDK's part of a turn runs: the prompt, the limits, the model per call, the tools, and the turn's controls. */
export interface ModelTurnPlan {
  messageId: string;
  system: string;
  messages: ModelMessage[];
  maxSteps: number;
  nextCall(): ModelCall;
  /** The tools, given a wait for a call's input to have been streamed, and the turn's own sink. */
  tools(inputShown: (toolCallId: string) => Promise<void>, sink: OutputSink): ToolSet;
  /** Where steers (user messages sent while the turn runs) come in before the next model call. */
  steers: Steering;
  signal: AbortSignal;
  onUsage(usage: LanguageModelUsage): void;
  /** Before every model call: the messages it sends instead of `messages` (a compaction), given the turn's sink. */
  prepareMessages?(stepNumber: number, messages: ModelMessage[], sink: OutputSink): Promise<ModelMessage[] | undefined>;
  /** Each call's model as it is called (the retry after a context-length refusal), given the turn's sink. */
  wrapModel?(model: LanguageModel, sink: OutputSink): LanguageModel;
}

/**
 * The AI SDK's part of a turn: its loop of model calls and tool calls (at most `maxSteps` calls), its chunks
 * filtered to the session's protocol and streamed as they come, the assistant message rebuilt from
 * those very chunks (so a client rebuilding it from the stream gets the same). Whatever happens —
 * a model failure, an abort, the step limit — the turn ends with a `finish` chunk; never throws.
 */
export async function modelTurn(plan: ModelTurnPlan, sink: OutputSink): Promise<void> {
  const createdAt = Date.now();
  const shown = new Set<string>();
  const waiting = new Map<string, () => void>();
  const inputShown = (id: string) => (shown.has(id) ? Promise.resolve() : new Promise<void>((resolve) => waiting.set(id, resolve)));
  // The message is rebuilt from the very chunks the stream carries; copies are taken only at step ends
  // (a copy per chunk would copy every fetched page again with each text delta), stored in order.
  const assembly = new MessageAssembly();
  let kept = Promise.resolve();
  const keep = () =>
    (kept = kept
      .then(async () => sink.message({ id: plan.messageId, role: "assistant", parts: await assembly.snapshot(), metadata: { createdAt } }))
      // One copy that could not be taken leaves the next one to be: the turn itself never throws.
      .catch((error: unknown) => console.error("turn message not kept", error instanceof Error ? error.name : typeof error)));
  const push = (chunk: UiMessageChunk) => {
    sink.chunk(chunk);
    assembly.add(chunk);
    if (chunk.type === "finish-step") void keep();
  };
  // Tools stream into the same assembly, so their chunks are part of the stored message.
  const toolSink: OutputSink = { ...sink, chunk: push };

  let steps = 0;
  let finish: UiMessageChunk | undefined;
  let failed = false;
  let sawAbort = false;
  let calling = plan.nextCall();
  const modelOf = (call: ModelCall) => plan.wrapModel?.(call.model, toolSink) ?? call.model;
  // The turn's message starts before its first call is prepared: a compaction then streams inside it.
  push({ type: "start", messageId: plan.messageId });
  try {
    const result = streamText({
      model: modelOf(calling),
      system: plan.system,
      messages: plan.messages,
      tools: plan.tools(inputShown, toolSink),
      stopWhen: stepCountIs(plan.maxSteps),
      abortSignal: plan.signal,
      // Retries happen in the model fetch, where Retry-After is honoured up to a bound.
      maxRetries: 0,
      // Nothing subscribes to the SDK's telemetry; on, its tracing hooks cost CPU every step.
      telemetry: { isEnabled: false },
      experimental_steering: plan.steers,
      ...(calling.providerOptions && { providerOptions: calling.providerOptions }),
      prepareStep: async ({ stepNumber, messages }) => {
        const replaced = await plan.prepareMessages?.(stepNumber, messages, toolSink);
        const changed = replaced && { messages: replaced };
        if (stepNumber === 0) return changed;
        calling = plan.nextCall();
        return { model: modelOf(calling), ...(calling.providerOptions && { providerOptions: calling.providerOptions }), ...changed };
      },
      onStepFinish: (step) => plan.onUsage(step.usage),
      onError: () => {},
    });
    const onError = (error: unknown) => describeModelError(error, calling.provider, calling.api);
    // A call the model made with invalid input shows as tool-input-error; its tool-error is not shown again.
    const invalidCalls = new Set<string>();
    // The SDK's stream parts become UI chunks here, one function call each (its toUIMessageStream
    // would put three more streams between them and the session).
    for await (const part of result.stream) {
      if (part.type === "tool-call" && part.invalid) invalidCalls.add(part.toolCallId);
      if (part.type === "tool-error" && !part.providerExecuted && invalidCalls.delete(part.toolCallId)) continue;
      const raw = toUIMessageChunk(part, { sendReasoning: true, redactToolErrors: false, onError });
      if (!raw) continue;
      const chunk = toProtocolChunk(raw);
      if (!chunk || chunk.type === "start") continue;
      if (chunk.type === "finish") {
        finish = chunk;
        continue;
      }
      if (chunk.type === "start-step") steps++;
      if (chunk.type === "error") failed = true;
      if (chunk.type === "abort") sawAbort = true;
      push(chunk);
      if (chunk.type === "tool-input-available") {
        shown.add(chunk.toolCallId);
        waiting.get(chunk.toolCallId)?.();
      }
    }
  } catch (error) {
    if (!plan.signal.aborted) {
      failed = true;
      push({ type: "error", errorText: describeModelError(error, calling.provider, calling.api) });
    }
  }

  if (plan.signal.aborted) {
    if (!sawAbort) push({ type: "abort" });
  } else if (!failed && finish?.type === "finish" && finish.finishReason === "tool-calls" && steps >= plan.maxSteps) {
    const id = `text-max-steps-${plan.messageId}`;
    push({ type: "text-start", id });
    push({ type: "text-delta", id, delta: `Stopped after ${steps} model calls, the most one turn may make (settings.agent.maxSteps); send a message to continue.` });
    push({ type: "text-end", id });
  }
  push(finish ?? { type: "finish" });
  await keep();
}
