import type { ControlPayload, UiMessageChunk } from "@edge-web/shared";
import {
  createUIMessageStream,
  stepCountIs,
  streamText,
  toUIMessageStream,
  type Experimental_Steering as Steering,
  type LanguageModel,
  type LanguageModelUsage,
  type ModelMessage,
  type ToolSet,
  type UIMessage,
} from "ai";
import type { TurnStreamHooks } from "./agent-tools.ts";
import { describeModelError } from "./describe-model-error.ts";
import { toProtocolChunk } from "./to-protocol-chunk.ts";

/** The AI SDK's per-provider options (thinking levels become these). */
export type ProviderOptions = NonNullable<Parameters<typeof streamText>[0]["providerOptions"]>;

/** The model a call goes to, and how: model and thinking changes apply from the next call. */
export interface ModelCall {
  model: LanguageModel;
  provider: string;
  api: string;
  providerOptions?: ProviderOptions;
}

export interface TurnPlan {
  messageId: string;
  system: string;
  messages: ModelMessage[];
  maxSteps: number;
  nextCall(): ModelCall;
  tools(hooks: TurnStreamHooks): ToolSet;
  steering: Steering;
  signal: AbortSignal;
  onUsage(usage: LanguageModelUsage): void;
}

/** Where a turn's stream goes. */
export interface TurnOutput {
  emit(chunk: UiMessageChunk): void;
  control(payload: ControlPayload): void;
  /** The assistant message as built from the chunks so far, at each step's end and at the end. */
  message(message: UIMessage): void;
}

/**
 * One turn: the AI SDK's loop of model calls and tool calls (at most `maxSteps` calls), its chunks
 * filtered to the session's protocol and streamed as they come, the assistant message rebuilt from
 * those very chunks (so a client rebuilding it from the stream gets the same). Whatever happens —
 * a model failure, an abort, the step limit — the turn ends with a `finish` chunk; never throws.
 */
export async function runTurn(plan: TurnPlan, out: TurnOutput): Promise<void> {
  const shown = new Set<string>();
  const waiting = new Map<string, () => void>();
  const hooks: TurnStreamHooks = {
    inputShown: (id) => (shown.has(id) ? Promise.resolve() : new Promise((resolve) => waiting.set(id, resolve))),
    emit: (chunk) => push(chunk),
    control: (payload) => out.control(payload),
  };
  const assembly = new TransformStream<UiMessageChunk, UiMessageChunk>();
  const writer = assembly.writable.getWriter();
  // The message is rebuilt from the very chunks the stream carries; copies are taken only at step ends
  // (a copy per chunk would copy every fetched page again with each text delta).
  let latest: UIMessage | undefined;
  const rebuilt = createUIMessageStream<UIMessage>({
    execute: ({ writer }) => writer.merge(assembly.readable as ReadableStream<never>),
    onStepEnd: ({ responseMessage }) => out.message(responseMessage),
    onEnd: ({ responseMessage }) => {
      latest = responseMessage;
    },
    onError: () => "",
  });
  const assembled = (async () => {
    const reader = rebuilt.getReader();
    while (!(await reader.read()).done);
  })();
  const push = (chunk: UiMessageChunk) => {
    out.emit(chunk);
    void writer.write(chunk).catch(() => {});
  };

  let steps = 0;
  let finish: UiMessageChunk | undefined;
  let failed = false;
  let sawAbort = false;
  let calling = plan.nextCall();
  try {
    const result = streamText({
      model: calling.model,
      system: plan.system,
      messages: plan.messages,
      tools: plan.tools(hooks),
      stopWhen: stepCountIs(plan.maxSteps),
      abortSignal: plan.signal,
      // Retries happen in the model fetch, where Retry-After is honoured up to a bound.
      maxRetries: 0,
      experimental_steering: plan.steering,
      ...(calling.providerOptions && { providerOptions: calling.providerOptions }),
      prepareStep: ({ stepNumber }) => {
        if (stepNumber === 0) return undefined;
        calling = plan.nextCall();
        return { model: calling.model, ...(calling.providerOptions && { providerOptions: calling.providerOptions }) };
      },
      onStepFinish: (step) => plan.onUsage(step.usage),
      onError: () => {},
    });
    const stream = toUIMessageStream({
      stream: result.stream,
      sendReasoning: true,
      redactToolErrors: false,
      onError: (error) => describeModelError(error, calling.provider, calling.api),
      generateMessageId: () => plan.messageId,
    });
    for await (const raw of stream) {
      const chunk = toProtocolChunk(raw);
      if (!chunk) continue;
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
  await writer.close().catch(() => {});
  await assembled;
  if (latest) out.message(latest);
}
