import type { UiMessageChunk } from "@edge-web/shared";
import { toUIMessageChunk, type FinishReason, type LanguageModel, type LanguageModelUsage, type ModelMessage, type TextStreamPart, type ToolExecutionOptions, type ToolSet } from "ai";
import { describeModelError } from "../wire/describe-model-error.ts";
import { idleTimer } from "../wire/idle-timer.ts";
import { MessageAssembly } from "../wire/message-assembly.ts";
import { callModel } from "../wire/call-model.ts";
import { ModelTimeoutError } from "../wire/model-fetch.ts";
import type { ModelHandle } from "../model/open-model.ts";
import type { OutputSink } from "./output-sink.ts";
import { stepMessages, type ToolOutcome } from "./step-messages.ts";
import type { MessageQueue } from "./message-queue.ts";
import { toProtocolChunks } from "./to-protocol-chunks.ts";
import type { TurnSteers } from "./turn-steers.ts";

/** What the model loop of a turn runs: the prompt, the limits, the model per call, the tools, and the turn's controls. */
export interface ModelTurnPlan {
  messageId: string;
  system: string;
  messages: ModelMessage[];
  maxSteps: number;
  nextCall(): ModelHandle;
  /** The tools, given a wait for a call's input to have been streamed, and the turn's own sink. */
  tools(inputShown: (toolCallId: string) => Promise<void>, sink: OutputSink): ToolSet;
  /** Where steers (user messages sent while the turn runs) come in before the next model call. */
  steers: TurnSteers;
  /** The session's waiting messages: their changes go into the turn's message while it is open. */
  queue: Pick<MessageQueue, "openMessage" | "closeMessage">;
  signal: AbortSignal;
  onUsage(usage: LanguageModelUsage): void;
  /** Before every model call: the messages it sends instead of `messages` (a compaction), given the turn's sink. */
  prepareMessages?(stepNumber: number, messages: ModelMessage[], sink: OutputSink): Promise<ModelMessage[] | undefined>;
  /** Each call's model as it is called (the retry after a context-length refusal), given the turn's sink. */
  wrapModel?(model: LanguageModel, sink: OutputSink): LanguageModel;
}

/** A step ends the turn when it called no tool (unless a steer waits and the answer was not cut off), failed, or was the last allowed. */
const CUT_OFF = new Set<FinishReason>(["length", "content-filter"]);

/**
 * The model loop of a turn: model calls (at most `maxSteps`), each followed by the tools it called,
 * their chunks filtered to the session's protocol and streamed as they come, the assistant message
 * rebuilt from those very chunks (so a client rebuilding it from the stream gets the same). A steer
 * joins the next call. Whatever happens — a model failure, an abort, the step limit — the turn ends
 * with a `finish` chunk; never throws. Each call is made with the AI SDK's parts (prompt conversion,
 * the provider, tool-call parsing) and read by wire/call-model.ts; the loop is ours: the SDK's own loop
 * puts a dozen streams between the provider and the session, which cost more CPU than the rest of
 * the turn.
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

  let calling = plan.nextCall();
  const modelOf = (call: ModelHandle) => plan.wrapModel?.(call.model, toolSink) ?? call.model;
  const onError = (error: unknown) => describeModelError(error, calling.provider, calling.api);
  /** An SDK part as the session streams it (nothing, for parts the protocol has no chunk for). */
  const show = (part: TextStreamPart<ToolSet>) => {
    const raw = toUIMessageChunk(part, { sendReasoning: true, redactToolErrors: false, onError });
    const chunks = raw ? toProtocolChunks(raw) : [];
    for (const chunk of chunks) push(chunk);
    return chunks;
  };
  const tools = plan.tools(inputShown, toolSink);
  let messages = plan.messages;
  let steps = 0;
  let finishReason: FinishReason | undefined;
  let failed = false;
  // The model calls' signal: the turn's abort, or a call gone silent (which ends the turn).
  const calls = new AbortController();
  const forward = () => calls.abort(plan.signal.reason);
  plan.signal.addEventListener("abort", forward, { once: true });
  // The turn's message starts before its first call is prepared: a compaction then streams inside it.
  push({ type: "start", messageId: plan.messageId });
  plan.queue.openMessage(push);
  try {
    for (;;) {
      // Taking the steers shows them joining here (a data-pi-queue chunk the history keeps).
      const steered = plan.steers.take();
      const input = steered.length > 0 ? [...messages, ...steered.map((s) => s.message)] : messages;
      messages = (await plan.prepareMessages?.(steps, input, toolSink)) ?? input;
      if (steps > 0) calling = plan.nextCall();
      const { parts, content } = await callModel({
        model: modelOf(calling),
        system: plan.system,
        messages,
        tools,
        abortSignal: calls.signal,
        ...(calling.providerOptions && { providerOptions: calling.providerOptions }),
      });
      steps++;
      push({ type: "start-step" });
      const outcomes: ToolOutcome[] = [];
      const running: Promise<void>[] = [];
      let toolCalls = 0;
      finishReason = undefined;
      // Silence while the answer streams ends the call (the wait for it to start is the model fetch's).
      const { idleMs } = calling;
      const watch = idleTimer(idleMs, () => calls.abort(new ModelTimeoutError(idleMs)));
      try {
        for await (const part of parts) {
          watch.touch();
          if (part.type === "model-call-end") {
            finishReason = part.finishReason;
            plan.onUsage(part.usage);
            continue;
          }
          // An invalid call shows as its input and error (tool-input-error); the tool-error part after it is the model's to read, not shown again.
          if (part.type === "tool-error" && !part.providerExecuted) {
            outcomes.push({ toolCallId: part.toolCallId, toolName: part.toolName, input: part.input, error: part.error });
            continue;
          }
          const chunks = show(part as TextStreamPart<ToolSet>);
          if (chunks.some((c) => c.type === "error")) failed = true;
          if (part.type !== "tool-call" || part.providerExecuted) continue;
          toolCalls++;
          if (chunks.some((c) => c.type === "tool-input-available")) {
            shown.add(part.toolCallId);
            waiting.get(part.toolCallId)?.();
          }
          if (!part.invalid) running.push(runTool(tools, part, messages, plan.signal, show, outcomes));
        }
      } finally {
        watch.stop();
      }
      await Promise.all(running);
      if (plan.signal.aborted) break;
      push({ type: "finish-step" });
      messages = [...messages, ...(await stepMessages(content, outcomes, tools))];
      const more = toolCalls > 0 || (plan.steers.pending && !CUT_OFF.has(finishReason ?? "other"));
      if (failed || finishReason === "error" || !more || steps >= plan.maxSteps) break;
    }
  } catch (error) {
    if (!plan.signal.aborted) {
      failed = true;
      // A call stopped for its silence fails however the provider's stream words the abort.
      const cause = calls.signal.aborted ? calls.signal.reason : error;
      push({ type: "error", errorText: describeModelError(cause, calling.provider, calling.api) });
    }
  }

  if (plan.signal.aborted) {
    push({ type: "abort" });
  } else if (!failed && finishReason === "tool-calls" && steps >= plan.maxSteps) {
    const id = `text-max-steps-${plan.messageId}`;
    push({ type: "text-start", id });
    push({ type: "text-delta", id, delta: `Stopped after ${steps} model calls, the most one turn may make (settings.agent.maxSteps); send a message to continue.` });
    push({ type: "text-end", id });
  }
  plan.signal.removeEventListener("abort", forward);
  plan.queue.closeMessage();
  push({ type: "finish", ...(finishReason && !plan.signal.aborted && { finishReason }) });
  await keep();
}

/** Runs one tool call the model made; its outcome is shown as it comes (not once the turn is aborted) and kept for the model. */
async function runTool(
  tools: ToolSet,
  call: { toolCallId: string; toolName: string; input: unknown },
  messages: ModelMessage[],
  signal: AbortSignal,
  show: (part: TextStreamPart<ToolSet>) => unknown,
  outcomes: ToolOutcome[],
): Promise<void> {
  const { toolCallId, toolName, input } = call;
  const options: ToolExecutionOptions<never> = { toolCallId, messages, abortSignal: signal } as ToolExecutionOptions<never>;
  try {
    const output: unknown = await tools[toolName]!.execute!(input, options);
    outcomes.push({ toolCallId, toolName, input, output });
    if (!signal.aborted) show({ type: "tool-result", toolCallId, toolName, input, output } as TextStreamPart<ToolSet>);
  } catch (error) {
    outcomes.push({ toolCallId, toolName, input, error });
    if (!signal.aborted) show({ type: "tool-error", toolCallId, toolName, input, error } as TextStreamPart<ToolSet>);
  }
}
