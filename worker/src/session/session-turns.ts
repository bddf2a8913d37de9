import { fail, ok, type CompactResponse, type CompletionResponse, type PromptRequest, type Result, type SteerRequest, type UiResponseRequest, type UiRpcRequest } from "@edge-web/shared";
import { AgentLoop, type Admission, type Delivery } from "../agent/turn/agent-loop.ts";
import { COMPLETION_TRIGGERS, completionItems } from "../agent/commands/completion.ts";
import { failTurn } from "../agent/turn/fail-turn.ts";
import { modelEgress } from "../agent/wire/model-egress.ts";
import { ContextMeter } from "../agent/context/context-meter.ts";
import { HistoryMemo } from "../agent/context/history-memo.ts";
import type { ConvertedMessage } from "../agent/context/to-model-messages.ts";
import { modelFetch } from "../agent/wire/model-fetch.ts";
import { openModel } from "../agent/model/open-model.ts";
import { resolveModel, type ResolvedModel } from "../agent/model/resolve-model.ts";
import { compactSession } from "../agent/context/session-compaction.ts";
import { sessionTurn, type SessionTurnDeps, type TurnMarker } from "../agent/turn/run-turn.ts";
import { parseSlashCommand } from "../agent/commands/slash-commands.ts";
import { answerUiRpc } from "../agent/commands/ui-rpc.ts";
import { costOf, tokensOf } from "../agent/model/token-usage.ts";
import { textOf } from "../agent/context/message-text.ts";
import { buildUserMessage, type UserInput } from "../agent/context/user-message.ts";
import type { Settings } from "../config/resolve-settings.ts";
import type { Env } from "../env.ts";
import type { AgentState } from "./agent-state.ts";
import { closeInterruptedMessage } from "./close-interrupted-message.ts";
import type { SessionSlot } from "./session-slot.ts";
import type { SessionStores } from "./session-stores.ts";
import type { SessionStream } from "./session-stream.ts";
import type { SessionTools } from "./session-tools.ts";
import { statsOf } from "./session-view.ts";

/** Where the marker of a running turn is kept (the object's key-value storage). */
const TURN_KEY = "turn";

const busy = () =>
  fail("SESSION_BUSY", "A turn is running; pass streamingBehavior \"steer\" (join the running turn) or \"followUp\" (run after it), or POST /abort first.");

type Done = Result<{ ok: true }>;
const done = (): Done => ok({ ok: true });

/** What the session object lends its turns. */
export interface SessionTurnsHost {
  env: Env;
  storage: DurableObjectStorage;
  slot: SessionSlot;
  stream: SessionStream;
  tools: SessionTools;
  /** Keeps the object alive for work that outlasts the request. */
  waitUntil(work: Promise<unknown>): void;
  /** Makes sure the idle alarm is set. */
  touch(): Promise<void>;
}

/**
 * The session's agent: its turns (one loop), messages (prompt, steer, follow-up, slash commands),
 * abort, model and thinking choices, fork, completion and UI answers, and the closing of a turn a
 * restart cut short (from the marker a running turn leaves in storage).
 */
export class SessionTurns {
  readonly loop: AgentLoop;
  private readonly host: SessionTurnsHost;
  /** A turn that was running when the object stopped; it is closed when the session is next used. */
  private interrupted?: TurnMarker;
  /** Summaries being made now (state.isCompacting). */
  private compactions = 0;
  /** The abort of a compaction asked for (POST /compact), while it runs. */
  private compactAbort?: AbortController;
  private readonly deps: SessionTurnDeps;
  /** The size of what the session's model calls send, known from their usage (docs/agent.md). */
  private readonly meter = new ContextMeter();
  /** The history as the model last saw it, per history (a session's stores are replaced when it is reset). */
  private readonly memos = new WeakMap<SessionStores, HistoryMemo<ConvertedMessage>>();

  constructor(host: SessionTurnsHost) {
    this.host = host;
    const { slot, stream, tools, env, storage } = host;
    if (slot.stores) this.interrupted = storage.kv.get<TurnMarker>(TURN_KEY);
    const settings = () => slot.settings!;
    this.deps = {
        settings,
        selection: () => slot.agent.selection,
        thinkingLevel: () => slot.thinkingLevel(),
        sessionModel: () => slot.current?.model,
        history: (from) => {
          const stores = slot.stores;
          if (!stores) return { revisions: [], read: () => [], memo: new HistoryMemo() };
          let memo = this.memos.get(stores);
          if (!memo) this.memos.set(stores, (memo = new HistoryMemo()));
          return { revisions: stores.messages.revisions(from), read: (ids) => stores.messages.read(ids), memo };
        },
        sink: () => stream.sink(slot.stores!, () => settings().config.maxStoredContentChars),
        sessionId: () => slot.current?.sessionId ?? "",
        toolContext: (signal) => tools.context(slot.stores!, settings(), signal),
        egress: (provider) => modelEgress(env, settings(), provider),
        attachment: async (id) => {
          const file = await tools.attachmentFile(id);
          return file && { mimeType: file.mimeType, bytes: file.bytes };
        },
        storedResult: (responseId) => slot.stores?.results.get(responseId),
        addUsage: (tokens, cost) => slot.addUsage(tokens, cost),
        // Unconfirmed, and in the next task: the marker's commit (an fsync on local storage, on the
        // thread) never holds back the turn's first model request, the stream or the answer.
        markTurn: (marker) => {
          setTimeout(() => storage.put(TURN_KEY, marker, { allowUnconfirmed: true }).catch(() => {}), 0);
        },
        // One task, so one commit: the marker's removal and the turn's pending writes (apart, they were two fsyncs).
        endTurn: () => {
          setTimeout(() => {
            storage.delete(TURN_KEY, { allowUnconfirmed: true }).catch(() => {});
            slot.flush();
          }, 0);
        },
        newId: () => crypto.randomUUID(),
        latestCompaction: () => slot.stores?.compactions.latest(),
        keepCompaction: (entry, usage) => {
          const stores = slot.stores;
          if (!stores) return;
          stores.compactions.add(entry);
          const tokens = tokensOf(usage);
          stores.counters.add("compaction.count");
          stores.counters.add("compaction.inputTokens", tokens.input + tokens.cacheRead + tokens.cacheWrite);
          stores.counters.add("compaction.outputTokens", tokens.output);
          stores.counters.add("compaction.tokensSaved", Math.max(0, entry.tokensBefore - entry.tokensAfter));
          const model = resolveModel(settings().agent, slot.agent.selection, slot.current?.model);
          slot.addUsage(tokens, costOf(tokens, model.ok ? model.value.entry?.cost : undefined));
        },
        compacting: (on) => {
          this.compactions += on ? 1 : -1;
        },
        meter: this.meter,
      };
    // Between turns the queue's changes go on the stream alone (they carry no page content to cap).
    this.loop = new AgentLoop(sessionTurn(this.deps), (chunk) => slot.stores && stream.sink(slot.stores, () => Number.POSITIVE_INFINITY).chunk(chunk));
  }

  /** A summary is being made (state.isCompacting). */
  get compacting(): boolean {
    return this.compactions > 0;
  }

  /**
   * POST /compact and `/compact`: the history the model sees is summarised but for its recent
   * messages. Refused with 409 SESSION_BUSY while a turn runs; while it runs, messages queue
   * behind it as behind a turn, and POST /abort cancels it (the history stays as it was).
   */
  async compact(settings: Settings, instructions: string | undefined): Promise<Result<CompactResponse>> {
    const started = this.startCompaction(settings, instructions);
    return started.ok ? ok(await started.value) : started;
  }

  /** Takes the turn slot at once (or is refused), then compacts. */
  private startCompaction(settings: Settings, instructions: string | undefined): Result<Promise<CompactResponse>> {
    const model = resolveModel(settings.agent, this.host.slot.agent.selection, this.host.slot.current?.model);
    if (!model.ok) return model;
    const admission = this.loop.admit(undefined);
    if (!admission) return fail("SESSION_BUSY", "A turn is running; compact when the session is idle: wait for the turn to finish, or POST /abort first.");
    return ok(this.runCompaction(settings, model.value, admission, instructions));
  }

  private async runCompaction(settings: Settings, model: ResolvedModel, admission: Admission, instructions: string | undefined): Promise<CompactResponse> {
    const abort = new AbortController();
    this.compactAbort = abort;
    const sink = this.deps.sink();
    const call = () => openModel(settings, model, "minimal", () => modelFetch(settings.agent.modelTimeoutMs, this.deps.egress(model.provider.name)));
    try {
      return await compactSession(this.deps, settings, model, call, sink, abort.signal, instructions);
    } catch {
      return { compacted: false, reason: abort.signal.aborted ? "Aborted: the history is unchanged." : "The compaction failed; the history is unchanged." };
    } finally {
      this.compactAbort = undefined;
      this.host.slot.flush();
      const next = admission.release();
      if (next) this.host.waitUntil(next);
    }
  }

  /**
   * POST /messages: a slash command runs its tool at once; otherwise a turn starts (200 at once, the
   * turn runs on whether or not anyone follows the stream). While a turn runs, `streamingBehavior`
   * says whether the message steers it or follows it.
   */
  async prompt(stores: SessionStores, input: PromptRequest, settings: Settings): Promise<Done> {
    const command = parseSlashCommand(input.message);
    if (!command) return this.send(stores, input, settings, input.streamingBehavior);
    if (!command.ok) return command;
    if (this.loop.running) return fail("SESSION_BUSY", "A turn is running; commands run when the session is idle. Wait for the turn to finish or POST /abort.");
    const { tool } = command.value.command;
    if (!tool) {
      // /compact: the compaction streams; the command itself stays out of the history the model sees.
      const started = this.startCompaction(settings, command.value.params.instructions as string | undefined);
      if (!started.ok) return started;
      this.host.waitUntil(started.value);
      return done();
    }
    const user = await this.userMessage(stores, input, settings);
    if (!user.ok) return user;
    stores.messages.put(user.value.message);
    this.host.waitUntil(this.host.touch().then(() => this.host.tools.call(stores, tool, command.value.params, settings)));
    return done();
  }

  /**
   * A message for the loop (POST /messages, /steer with "steer", /follow_up with "followUp"). Its
   * place is taken before it is built (building awaits storage), so of two messages sent at once to
   * an idle session one starts the turn and the other steers, follows up or is refused.
   */
  async send(stores: SessionStores, input: SteerRequest, settings: Settings, delivery: Delivery | undefined): Promise<Done> {
    const admission = this.loop.admit(delivery);
    if (!admission) return busy();
    const refuse = (refusal: Exclude<Done, { ok: true }>) => {
      const next = admission.release();
      if (next) this.host.waitUntil(next);
      return refusal;
    };
    if (admission.starts) {
      const model = resolveModel(settings.agent, this.host.slot.agent.selection, this.host.slot.current?.model);
      if (!model.ok) return refuse(model);
    }
    const user = await this.userMessage(stores, input, settings);
    if (!user.ok) return refuse(user);
    await this.host.touch();
    const started = admission.hand(user.value.message, user.value.model);
    if (started) this.host.waitUntil(started);
    return done();
  }

  /** POST /abort: the model stream is closed, tool calls in flight cancelled, queued messages dropped. */
  async abort(): Promise<Done> {
    this.compactAbort?.abort();
    await this.loop.abort();
    return done();
  }

  /** POST /model and /thinking: kept for the session's next model calls. */
  choose(stores: SessionStores, change: Partial<AgentState>): Done {
    this.host.slot.choose(stores, change);
    return done();
  }

  /** The user messages a fork can start from. */
  forkMessages(stores: SessionStores): Result<Array<{ entryId: string; text: string }>> {
    return ok(stores.messages.list().filter((m) => m.role === "user").map((m) => ({ entryId: m.id, text: textOf(m) })));
  }

  /** Cuts the history back to just before the user message `entryId`; answers its text, for an editor to prefill. */
  fork(stores: SessionStores, entryId: string): Result<{ text: string }> {
    if (this.loop.running) return fail("SESSION_BUSY", "A turn is running; POST /abort before forking.");
    const entry = stores.messages.list().find((m) => m.id === entryId && m.role === "user");
    if (!entry) return fail("ENTRY_NOT_FOUND", `No user message "${entryId}" in this session; GET /fork-messages lists the entries.`);
    stores.messages.truncateFrom(entryId);
    // A compaction whose kept part was cut away no longer applies: the model sees what is left.
    stores.compactions.retain(new Set(stores.messages.list().map((m) => m.id)));
    return ok({ text: textOf(entry) });
  }

  /** GET /completion/triggers (no trigger) and GET /completion. */
  completion(stores: SessionStores, trigger: string | undefined, query: string): Result<{ triggers: typeof COMPLETION_TRIGGERS } | CompletionResponse> {
    if (trigger === undefined) return ok({ triggers: COMPLETION_TRIGGERS });
    return ok(completionItems(trigger, query, () => stores.results.summaries()));
  }

  /** POST /ui-response: answers an approval the running turn waits for. */
  uiResponse(response: UiResponseRequest): Done {
    if (!this.loop.gate()?.answer(response)) {
      return fail("UNKNOWN_EXTENSION_UI", `No request "${response.id}" waits for an answer: it is unknown or was answered already.`);
    }
    return done();
  }

  /** POST /ui-rpc: answered on the stream as a `ui-rpc` control frame. */
  uiRpc(stores: SessionStores, request: UiRpcRequest): Done {
    const { slot, stream } = this.host;
    const response = answerUiRpc(request, { results: () => stores.results.summaries(), result: (id) => stores.results.get(id), stats: () => statsOf(slot, stores) });
    stream.sink(stores, () => Number.POSITIVE_INFINITY).control({ control: "ui-rpc", response });
    slot.flush();
    return done();
  }

  /**
   * For a new session, before its first turn: the first write through the key-value storage (where
   * the marker goes) creates its table and prepares its statements, a schema change after which
   * every statement run before it is prepared again. Done while the session's own tables are made,
   * that is not left to its first turn; in exchange each start of the object prepares the table's
   * statements (about 0.15 ms), as it always did for a session that had run a turn.
   */
  prepareMarker(): void {
    this.host.storage.kv.delete(TURN_KEY);
  }

  /** Closes a turn a restart cut short: an `interrupted` error and `finish` on the stream, its message's unfinished tool calls marked. */
  recover(stores: SessionStores): void {
    const marker = this.interrupted;
    if (!marker || this.loop.running) return;
    this.interrupted = undefined;
    const { slot, stream, storage } = this.host;
    // After a restart the settings may not be known yet; these chunks carry no page content.
    const sink = stream.sink(stores, () => slot.settings?.config.maxStoredContentChars ?? Number.POSITIVE_INFINITY);
    failTurn(sink, marker.messageId, "interrupted: the turn was cut short when the session restarted; send the message again.");
    const history = stores.messages.list();
    if (!history.some((m) => m.id === marker.user.id)) sink.message(marker.user);
    const message = history.find((m) => m.id === marker.messageId);
    if (message) sink.message(closeInterruptedMessage(message));
    storage.delete(TURN_KEY).catch(() => {}); // a marker left behind only closes the turn again
    slot.flush();
  }

  private userMessage(stores: SessionStores, input: UserInput, settings: Settings) {
    const { tools } = this.host;
    return buildUserMessage(input, {
      newId: () => crypto.randomUUID(),
      keepImage: (bytes, mimeType) => tools.keepImage(stores, bytes, mimeType),
      attachment: (id) => tools.attachmentFile(id),
      maxTextChars: settings.config.maxContentChars,
    });
  }
}
