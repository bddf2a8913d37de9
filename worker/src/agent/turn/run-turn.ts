import type { SessionMessage, ThinkingLevel } from "@edge-web/shared";
import type { Settings } from "../../config/resolve-settings.ts";
import type { ToolContext } from "../../tools/tool.ts";
import type { TurnControl } from "./agent-loop.ts";
import { agentTools } from "./agent-tools.ts";
import { failTurn } from "./fail-turn.ts";
import { modelFetch } from "../wire/model-fetch.ts";
import { openModel } from "../model/open-model.ts";
import { modelTurn } from "./model-turn.ts";
import type { OutputSink } from "./output-sink.ts";
import { resolveModel, type ModelSelection, type ResolvedModel } from "../model/resolve-model.ts";
import { withOverflowRetry } from "../context/context-overflow.ts";
import { compactionDeps, currentView, limitsFor, type CompactionSources } from "../context/session-compaction.ts";
import { TurnContext } from "../context/turn-context.ts";
import { traceTurn } from "./turn-trace.ts";
import { costOf, tokensOf, type TokenTotals } from "../model/token-usage.ts";

/** A turn in progress, remembered in storage so that a restart can close it (with the message that started it). */
export interface TurnMarker {
  messageId: string;
  user: SessionMessage;
}

/** What a session gives its turns. */
export interface SessionTurnDeps extends CompactionSources {
  /** The settings of the latest request (a follow-up runs with what is current). */
  settings(): Settings;
  selection(): ModelSelection | undefined;
  thinkingLevel(): ThinkingLevel;
  /** The model the session was created with, if any. */
  sessionModel(): string | undefined;
  /** The session's stream and history, stored copies capped. */
  sink(): OutputSink;
  sessionId(): string;
  toolContext(signal: AbortSignal | undefined): ToolContext;
  /** How requests reach a model provider (the sidecar's relay, under that provider's policy). */
  egress(provider: string): typeof globalThis.fetch;
  addUsage(tokens: TokenTotals, cost: number): void;
  /** Keeps the running turn's marker, written in the next task without holding anything back. */
  markTurn(marker: TurnMarker): void;
  /**
   * The turn is over: its marker goes and what it left pending is written, in one storage commit
   * in the next task, once what this one sends (its last frames) has gone out.
   */
  endTurn(): void;
}

/**
 * The session's part of a turn (the AI SDK's part is model-turn.ts): the user's message into the
 * history, a marker while it runs, the model called straight from the session with the web tools,
 * the assistant message kept as it grows (written at least every second and when the turn ends, in
 * one commit), and usage and cost added up per model call.
 */
export function sessionTurn(deps: SessionTurnDeps): (user: SessionMessage, control: TurnControl) => Promise<void> {
  return async (user, control) => {
    const settings = deps.settings();
    const messageId = `msg_${deps.newId()}`;
    const trace = settings.config.debug === "trace" ? traceTurn(deps.sink(), messageId) : undefined;
    const sink = trace?.sink ?? deps.sink();
    // Nothing is committed before the first model call (a commit would hold the call back): the
    // history is written with the session's next flush, the marker without waiting for its commit.
    sink.message(user);
    deps.markTurn({ messageId, user });

    const first = resolveModel(settings.agent, deps.selection(), deps.sessionModel());
    if (!first.ok) {
      failTurn(sink, messageId, first.error.message);
    } else {
      let current = first.value;
      /** A call to the model of the moment, with the settings of the moment. */
      const callNow = () => {
        const settingsNow = deps.settings();
        return openModel(settingsNow, current, deps.thinkingLevel(), () => modelFetch(settingsNow.agent.modelTimeoutMs, deps.egress(current.provider.name)));
      };
      // The model and thinking level are read again before every call: POST /model and /thinking apply to the next one.
      const nextCall = () => {
        const now = resolveModel(deps.settings().agent, deps.selection(), deps.sessionModel());
        if (now.ok) current = now.value;
        return callNow();
      };
      // The window is the turn's first model's; summaries go to the model of the moment (the summary asks for no thinking).
      const limits = limitsFor(settings, current);
      try {
        const view = await currentView(deps, settings, limits);
        let context: TurnContext | undefined;
        const contextOf = (toolSink: OutputSink) =>
          (context ??= new TurnContext(view, { ...compactionDeps(deps, settings, limits, callNow, (c) => toolSink.chunk(c)), meter: deps.meter, turnMessageId: messageId }));
        await modelTurn(
          {
            messageId,
            system: settings.agent.systemPrompt,
            messages: view.messages,
            maxSteps: settings.agent.maxSteps,
            nextCall,
            tools: (inputShown, toolSink) =>
              agentTools({
                context: deps.toolContext,
                ...(settings.agent.askBeforeFetch && { gate: control.gate }),
                inputShown,
                sink: toolSink,
                newId: deps.newId,
                maxResultChars: limits.maxToolResultChars,
              }),
            steers: control.steers,
            queue: control.queue,
            signal: control.signal,
            onUsage: (usage) => {
              const tokens = tokensOf(usage);
              deps.addUsage(tokens, costOf(tokens, current.entry?.cost));
              context?.recordUsage(usage.inputTokens);
            },
            prepareMessages: (stepNumber, messages, toolSink) => contextOf(toolSink).prepare(stepNumber, messages, control.signal),
            wrapModel: (model, toolSink) => withOverflowRetry(model, () => contextOf(toolSink).overflow(control.signal)),
          },
          sink,
        );
      } catch (error) {
        console.error("turn could not start", error instanceof Error ? error.name : typeof error);
        failTurn(sink, messageId, "The turn could not start: the history could not be prepared for the model; try again.");
      }
    }
    deps.endTurn();
    trace?.log(deps.sessionId());
  };
}
