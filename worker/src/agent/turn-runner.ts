import type { ControlPayload, ThinkingLevel, UiMessageChunk } from "@edge-web/shared";
import type { Settings } from "../config/resolve-settings.ts";
import type { SessionMessage } from "@edge-web/shared";
import type { ToolContext } from "../tools/tool.ts";
import type { TurnRunner } from "./agent-loop.ts";
import { agentTools } from "./agent-tools.ts";
import { modelFetch } from "./model-fetch.ts";
import { MODEL_PROVIDERS } from "./model-providers.ts";
import { resolveModel, type ModelSelection, type ResolvedModel } from "./resolve-model.ts";
import { runTurn, type ModelCall } from "./run-turn.ts";
import { toModelMessages, type HistorySources } from "./to-model-messages.ts";
import { costOf, tokensOf, type TokenTotals } from "./token-usage.ts";

/** A turn in progress, remembered in storage so that a restart can close it (with the message that started it). */
export interface TurnMarker {
  messageId: string;
  user: SessionMessage;
}

/** What a session gives its turns. */
export interface TurnDeps extends Omit<HistorySources, "maxMentionChars"> {
  /** The settings of the latest request (a follow-up runs with what is current). */
  settings(): Settings;
  selection(): ModelSelection | undefined;
  thinkingLevel(): ThinkingLevel;
  /** The model the session was created with, if any. */
  sessionModel(): string | undefined;
  history(): SessionMessage[];
  saveMessage(message: SessionMessage): void;
  emit(chunk: UiMessageChunk): void;
  control(payload: ControlPayload): void;
  /** Writes what is pending (one storage commit). */
  flush(): void;
  toolContext(signal: AbortSignal | undefined): ToolContext;
  /** How requests reach a model provider (straight out, or through the sidecar's relay). */
  egress(provider: string): typeof globalThis.fetch;
  addUsage(tokens: TokenTotals, cost: number): void;
  markTurn(marker: TurnMarker | undefined): void;
  newId(): string;
}

function modelCall(resolved: ResolvedModel, level: ThinkingLevel, fetch: typeof globalThis.fetch): ModelCall {
  const member = MODEL_PROVIDERS[resolved.provider.settings.api];
  const providerOptions = member.thinkingOptions(resolved.provider, level, resolved.entry);
  return {
    model: member.languageModel(resolved.provider, resolved.modelId, fetch),
    provider: resolved.provider.name,
    api: resolved.provider.settings.api,
    ...(providerOptions && { providerOptions }),
  };
}

/**
 * A session's turn: the user's message into the history, a marker while it runs, the model called
 * straight from the session with the web tools, the assistant message kept as it grows (written at
 * least every second and when the turn ends, in one commit), and usage and cost added up per model call.
 */
export function createTurnRunner(deps: TurnDeps): TurnRunner {
  return async (user, control) => {
    const settings = deps.settings();
    const messageId = `msg_${deps.newId()}`;
    // Nothing is committed before the first model call (a commit would hold the call back): the
    // history is written with the session's next flush, the marker without waiting for its commit.
    deps.saveMessage(user);
    deps.markTurn({ messageId, user });
    const createdAt = Date.now();
    const keep = (message: { parts: unknown[] }) =>
      deps.saveMessage({ id: messageId, role: "assistant", parts: message.parts as SessionMessage["parts"], metadata: { createdAt } });
    const fail = (errorText: string) => {
      deps.emit({ type: "start", messageId });
      deps.emit({ type: "error", errorText });
      deps.emit({ type: "finish" });
    };

    const first = resolveModel(settings.agent, deps.selection(), deps.sessionModel());
    if (!first.ok) {
      fail(first.error.message);
    } else {
      let current = first.value;
      try {
        const messages = await toModelMessages(deps.history(), { ...deps, maxMentionChars: settings.config.maxContentChars });
        await runTurn(
          {
            messageId,
            system: settings.agent.agent.systemPrompt,
            messages,
            maxSteps: settings.agent.agent.maxSteps,
            // The model and thinking level are read again before every call: POST /model and /thinking apply to the next one.
            nextCall: () => {
              const now = resolveModel(deps.settings().agent, deps.selection(), deps.sessionModel());
              if (now.ok) current = now.value;
              return modelCall(current, deps.thinkingLevel(), modelFetch(deps.settings().agent.agent.modelTimeoutMs, deps.egress(current.provider.name)));
            },
            tools: (hooks) =>
              agentTools({ context: deps.toolContext, ...(settings.agent.askBeforeFetch && { gate: control.gate }), hooks, newId: deps.newId }),
            steering: control.steering,
            signal: control.signal,
            onUsage: (usage) => {
              const tokens = tokensOf(usage);
              deps.addUsage(tokens, costOf(tokens, current.entry?.cost));
            },
          },
          { emit: deps.emit, control: deps.control, message: keep },
        );
      } catch (error) {
        console.error("turn could not start", error instanceof Error ? error.name : typeof error);
        fail("The turn could not start: the history could not be prepared for the model; try again.");
      }
    }
    deps.markTurn(undefined);
    deps.flush();
  };
}
