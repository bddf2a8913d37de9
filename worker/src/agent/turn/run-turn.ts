import type { SessionMessage } from "@edge-web/shared";
import type { TurnControl } from "./agent-loop.ts";
import { agentTools } from "./agent-tools.ts";
import { failTurn } from "./fail-turn.ts";
import { modelFetch } from "../wire/model-fetch.ts";
import { openModel } from "../model/open-model.ts";
import { modelTurn } from "./model-turn.ts";
import type { OutputSink } from "./output-sink.ts";
import { resolveModel } from "../model/resolve-model.ts";
import { withOverflowRetry } from "../context/context-overflow.ts";
import { compactionDeps, currentView, limitsFor } from "../context/session-compaction.ts";
import { offersSiteTools } from "../context/site-tool-definitions.ts";
import { TurnContext } from "../context/turn-context.ts";
import { siteTools } from "./site-tools.ts";
import { traceTurn } from "./turn-trace.ts";
import { costOf, tokensOf } from "../model/token-usage.ts";
import type { SessionPort } from "./session-port.ts";

/**
 * The session's part of a turn (the AI SDK's part is model-turn.ts): the user's message into the
 * history, a marker while it runs, the model called straight from the session with the web tools,
 * the assistant message kept as it grows (written at least every second and when the turn ends, in
 * one commit), and usage and cost added up per model call.
 */
export async function runTurn(session: SessionPort, user: SessionMessage, control: TurnControl): Promise<void> {
  const settings = session.settings();
  const messageId = `msg_${session.newId()}`;
  const trace = settings.config.debug === "trace" ? traceTurn(session.sink(), messageId) : undefined;
  const sink = trace?.sink ?? session.sink();
  // Nothing is committed before the first model call (a commit would hold the call back): the
  // history is written with the session's next flush, the marker without waiting for its commit.
  sink.message(user);
  session.markTurn({ messageId, user });

  const first = resolveModel(settings.agent, session.selection(), session.sessionModel());
  if (!first.ok) {
    failTurn(sink, messageId, first.error.message);
  } else {
    let current = first.value;
    /** A call to the model of the moment, with the settings of the moment. */
    const callNow = () => {
      const settingsNow = session.settings();
      return openModel(settingsNow, current, session.thinkingLevel(), () => modelFetch(settingsNow.agent.modelTimeoutMs, session.egress(current.provider.name)));
    };
    // The model and thinking level are read again before every call: POST /model and /thinking apply to the next one.
    const nextCall = () => {
      const now = resolveModel(session.settings().agent, session.selection(), session.sessionModel());
      if (now.ok) current = now.value;
      return callNow();
    };
    // The window is the turn's first model's; summaries go to the model of the moment (the summary asks for no thinking).
    const limits = limitsFor(settings, current);
    try {
      const view = await currentView(session, settings, limits);
      let context: TurnContext | undefined;
      const contextOf = (toolSink: OutputSink) =>
        (context ??= new TurnContext(view, { ...compactionDeps(session, settings, limits, callNow, (c) => toolSink.chunk(c)), meter: session.meter, turnMessageId: messageId }));
      await modelTurn(
        {
          messageId,
          system: settings.agent.systemPrompt,
          messages: view.messages,
          maxSteps: settings.agent.maxSteps,
          nextCall,
          tools: (inputShown, toolSink) => {
            const deps = {
              context: (signal: AbortSignal | undefined) => session.toolContext(signal),
              ...(settings.agent.askBeforeFetch && { gate: control.gate }),
              inputShown,
              sink: toolSink,
              newId: () => session.newId(),
              maxResultChars: limits.maxToolResultChars,
            };
            return { ...agentTools(deps), ...(offersSiteTools(limits) && siteTools(session.siteJobs(), deps)) };
          },
          steers: control.steers,
          queue: control.queue,
          signal: control.signal,
          onUsage: (usage) => {
            const tokens = tokensOf(usage);
            session.addUsage(tokens, costOf(tokens, current.entry?.cost));
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
  session.endTurn();
  trace?.log(session.sessionId());
}
