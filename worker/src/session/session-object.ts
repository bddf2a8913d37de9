import {
  createHostLimiter,
  encodeSseData,
  encodeSseFrame,
  fail,
  ok,
  PROTOCOL_VERSION,
  type ControlPayload,
  type HostLimiter,
  type PromptRequest,
  type Result,
  type SteerRequest,
  type ThinkingLevel,
  type ToolName,
  type UiMessageChunk,
  type UiResponseRequest,
  type UiRpcRequest,
  type WebConfig,
} from "@edge-web/shared";
import type { UserModelMessage } from "ai";
import { DurableObject } from "cloudflare:workers";
import { AgentLoop } from "../agent/agent-loop.ts";
import { COMPLETION_TRIGGERS, completionItems, type CompletionItem } from "../agent/completion.ts";
import type { ModelSelection } from "../agent/resolve-model.ts";
import { resolveModel } from "../agent/resolve-model.ts";
import { parseSlashCommand } from "../agent/slash-commands.ts";
import { addTokens } from "../agent/token-usage.ts";
import { modelEgress } from "../agent/model-egress.ts";
import { createTurnRunner, type TurnMarker } from "../agent/turn-runner.ts";
import { answerUiRpc } from "../agent/ui-rpc.ts";
import { buildUserMessage, type UserInput } from "../agent/user-message.ts";
import { newAttachmentId } from "../attachments/attachment-id.ts";
import { getAttachment, putAttachment } from "../attachments/attachment-store.ts";
import { createSearchCache } from "../cache/search-cache.ts";
import type { Settings } from "../config/resolve-settings.ts";
import type { Env } from "../env.ts";
import { createSidecarClient, type SidecarClient } from "../sidecar-client.ts";
import { capContent } from "../tools/cap-content.ts";
import type { ToolAnswer, ToolContext } from "../tools/tool.ts";
import { TOOLS } from "../tools/tool-registry.ts";
import { type AgentState, emptyAgentState } from "./agent-state.ts";
import { closeInterruptedMessage } from "./close-interrupted-message.ts";
import { fitRow } from "./fit-row.ts";
import type { SessionMessage, ToolUiMessage } from "@edge-web/shared";
import { runToolCall, type ToolCallSink } from "./run-tool-call.ts";
import type { SessionRecord } from "./session-record.ts";
import { sessionStats } from "./session-stats.ts";
import { flushSessionStores, holdsSession, openSessionStores, sessionLimits, type SessionLimits, type SessionStores } from "./session-stores.ts";
import { createStreamHub, type StreamHub } from "./stream-hub.ts";
import { logToolCall } from "./tool-call-log.ts";

/** Where the marker of a running turn is kept (the object's key-value storage). */
const TURN_KEY = "turn";

const notFound = () => fail("SESSION_NOT_FOUND", "Session not found; create one with POST /api/sessions.");
const busy = () =>
  fail("SESSION_BUSY", "A turn is running; pass streamingBehavior \"steer\" (join the running turn) or \"followUp\" (run after it), or POST /abort first.");

/** How often a running turn's pending frames and message are written, at the least. */
const TURN_FLUSH_MS = 1_000;

/**
 * One per session: its record, results, history, counters, live streams, running calls and the
 * agent's turns. It checks itself whether the session exists and is active; logic lives in plain
 * modules (tools/, agent/, and the stores beside this file).
 */
export class SessionObject extends DurableObject<Env> {
  private readonly limits: SessionLimits;
  private readonly hub: StreamHub;
  private readonly sidecar: SidecarClient;
  /** Undefined while the object holds no session: never created, or deleted (then nothing of it is stored). */
  private stores?: SessionStores;
  private current?: SessionRecord;
  private agent: AgentState = emptyAgentState();
  /** A turn that was running when the object stopped; it is closed when the session is next used. */
  private interrupted?: TurnMarker;
  /** Tool calls in flight, cancelled together when the session is deleted. */
  private readonly running = new Set<AbortController>();
  private readonly loop: AgentLoop;
  /** The settings of the latest request: turns (follow-ups too) run with what is current. */
  private settings?: Settings;
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  /** Usage added since the agent state was last written. */
  private usageDirty = false;
  private alarmSet = false;
  private limiter?: { key: string; limiter: HostLimiter };

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.limits = sessionLimits(env);
    this.sidecar = createSidecarClient(env);
    this.hub = createStreamHub({
      maxPending: this.limits.maxPendingFrames,
      overflowText: () =>
        this.controlText({ control: "error", code: "slow-consumer", message: "This stream fell too far behind and was closed; reconnect with Last-Event-ID to resume." }),
    });
    if (holdsSession(ctx.storage.sql)) {
      this.stores = openSessionStores(ctx.storage.sql, this.limits);
      this.current = this.stores.record.read();
      this.agent = this.stores.agent.read();
      this.interrupted = ctx.storage.kv.get<TurnMarker>(TURN_KEY);
    }
    this.loop = new AgentLoop(
      createTurnRunner({
        settings: () => this.settings!,
        selection: () => this.agent.selection,
        thinkingLevel: () => this.thinkingLevel(),
        sessionModel: () => this.current?.model,
        history: () => this.stores?.messages.list() ?? [],
        saveMessage: (message) => this.stores?.messages.put(capContent(message, this.settings!.config.maxStoredContentChars)),
        emit: (chunk) => this.stores && this.emit(this.stores, chunk, this.settings!.config.maxStoredContentChars),
        control: (payload) => this.stores && this.emitControl(this.stores, payload),
        flush: () => this.flush(),
        toolContext: (signal) => this.toolContext(this.stores!, this.settings!, signal),
        egress: (provider) => modelEgress(this.env, this.settings!, provider),
        attachment: async (id) => {
          const file = await this.attachmentFile(id);
          return file && { mimeType: file.mimeType, bytes: file.bytes };
        },
        storedResult: (responseId) => this.stores?.results.get(responseId),
        addUsage: (tokens, cost) => {
          this.agent = { ...this.agent, tokens: addTokens(this.agent.tokens, tokens), cost: this.agent.cost + cost };
          this.usageDirty = true;
        },
        // Unconfirmed: the marker's write never holds back the model call or the stream.
        markTurn: (marker) => {
          const written = marker ? this.ctx.storage.put(TURN_KEY, marker, { allowUnconfirmed: true }) : this.ctx.storage.delete(TURN_KEY, { allowUnconfirmed: true });
          written.catch(() => {});
        },
        newId: () => crypto.randomUUID(),
      }),
    );
  }

  async create(record: Omit<SessionRecord, "status" | "createdAt">): Promise<void> {
    this.stores ??= openSessionStores(this.ctx.storage.sql, this.limits);
    this.current = { ...record, status: "active", createdAt: Date.now() };
    this.stores.record.write(this.current);
    this.stores.activity.mark();
    await this.touch();
  }

  async describe(): Promise<SessionRecord | undefined> {
    return this.current;
  }

  /** The session's attachments are its own: deleting the session deletes them. */
  async addAttachment(id: string): Promise<Result<true>> {
    const open = this.active();
    if (!open.ok) return open;
    open.value.attachments.add(id);
    return ok(true);
  }

  /**
   * DELETE: open streams are told and closed, the turn and calls in flight cancelled, attachments
   * deleted, and the object's storage wiped, so every endpoint of the session answers 404 afterwards.
   */
  async delete(): Promise<Result<{ ok: true }>> {
    const stores = this.stores;
    if (!stores || !this.current) return notFound();
    const frameId = stores.frames.lastId() + 1;
    this.hub.closeAll(encodeSseFrame(frameId, this.control({ control: "error", code: "deleted", message: "session ended: deleted" })));
    this.stores = undefined;
    this.current = undefined;
    for (const call of this.running) call.abort();
    await this.loop.abort();
    const attachments = stores.attachments.ids();
    if (attachments.length > 0) await this.env.ATTACHMENTS.delete(attachments);
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    return ok({ ok: true });
  }

  async callTool(name: ToolName, params: unknown, settings: Settings): Promise<ToolAnswer<unknown>> {
    const open = this.use(settings);
    if (!open.ok) return open;
    const stores = open.value;
    await this.touch();
    const { config } = settings;
    // A session deleted while the call runs keeps nothing of it.
    const alive = () => this.stores === stores;
    const cancel = new AbortController();
    const steps: Record<string, number> = {};
    const started = Date.now();
    this.running.add(cancel);
    try {
      const ctx = this.toolContext(stores, settings, cancel.signal, steps);
      const answer = await runToolCall(TOOLS[name], params, ctx, this.toolSink(stores, config), () => crypto.randomUUID());
      if (alive()) this.flush();
      logToolCall(config.debug, { sessionId: this.current?.sessionId ?? "", tool: name, params, answer, ms: Date.now() - started, steps });
      return alive() ? answer : notFound();
    } finally {
      this.running.delete(cancel);
    }
  }

  /**
   * POST /messages: a slash command runs its tool at once; otherwise a turn starts (200 at once, the
   * turn runs on whether or not anyone follows the stream). While a turn runs, `streamingBehavior`
   * says whether the message steers it or follows it.
   */
  async prompt(input: PromptRequest, settings: Settings): Promise<Result<{ ok: true }>> {
    const open = this.use(settings);
    if (!open.ok) return open;
    const command = parseSlashCommand(input.message);
    if (command) {
      if (!command.ok) return command;
      if (this.loop.running) return fail("SESSION_BUSY", "A turn is running; commands run when the session is idle. Wait for the turn to finish or POST /abort.");
      const user = await this.userMessage(open.value, input, settings);
      if (!user.ok) return user;
      open.value.messages.put(user.value.message);
      this.ctx.waitUntil(this.callTool(command.value.command.tool, command.value.params, settings));
      return ok({ ok: true });
    }
    if (this.loop.running) {
      if (input.streamingBehavior === "steer") return this.steer(input, settings);
      if (input.streamingBehavior === "followUp") return this.followUp(input, settings);
      return busy();
    }
    return this.queueMessage(input, settings, (user) => this.loop.start(user.message));
  }

  /** POST /steer: joins the running turn before its next model call; with none running, starts one. */
  async steer(input: SteerRequest, settings: Settings): Promise<Result<{ ok: true }>> {
    return this.queueMessage(input, settings, (user) => this.loop.steer(user.message, user.model()));
  }

  /** POST /follow_up: runs as a turn of its own after the running one (at once when idle). */
  async followUp(input: SteerRequest, settings: Settings): Promise<Result<{ ok: true }>> {
    return this.queueMessage(input, settings, (user) => this.loop.followUp(user.message));
  }

  /** A message for the loop; when none runs, it starts a turn, which needs a model. */
  private async queueMessage(
    input: SteerRequest,
    settings: Settings,
    hand: (user: { message: SessionMessage; model: () => UserModelMessage }) => Promise<void> | undefined,
  ): Promise<Result<{ ok: true }>> {
    const open = this.use(settings);
    if (!open.ok) return open;
    if (!this.loop.running) {
      const model = resolveModel(settings.agent, this.agent.selection, this.current?.model);
      if (!model.ok) return model;
    }
    const user = await this.userMessage(open.value, input, settings);
    if (!user.ok) return user;
    await this.touch();
    const started = hand(user.value);
    if (started) this.ctx.waitUntil(started);
    return ok({ ok: true });
  }

  /** POST /abort: the model stream is closed, tool calls in flight cancelled, queued messages dropped. */
  async abort(): Promise<Result<{ ok: true }>> {
    const open = this.use();
    if (!open.ok) return open;
    await this.loop.abort();
    return ok({ ok: true });
  }

  async setModel(selection: ModelSelection): Promise<Result<{ ok: true }>> {
    return this.updateAgent({ selection });
  }

  async setThinking(level: ThinkingLevel): Promise<Result<{ ok: true }>> {
    return this.updateAgent({ thinkingLevel: level });
  }

  /** A model or thinking choice, kept for the session's next model calls. */
  private updateAgent(change: Partial<AgentState>): Result<{ ok: true }> {
    const open = this.use();
    if (!open.ok) return open;
    this.agent = { ...this.agent, ...change };
    open.value.agent.write(this.agent);
    return ok({ ok: true });
  }

  /** The user messages a fork can start from. */
  async forkMessages(): Promise<Result<Array<{ entryId: string; text: string }>>> {
    const open = this.use();
    if (!open.ok) return open;
    return ok(open.value.messages.list().filter((m) => m.role === "user").map((m) => ({ entryId: m.id, text: textOf(m) })));
  }

  /** Cuts the history back to just before the user message `entryId`; answers its text, for an editor to prefill. */
  async fork(entryId: string): Promise<Result<{ text: string }>> {
    const open = this.use();
    if (!open.ok) return open;
    if (this.loop.running) return fail("SESSION_BUSY", "A turn is running; POST /abort before forking.");
    const entry = open.value.messages.list().find((m) => m.id === entryId && m.role === "user");
    if (!entry) return fail("ENTRY_NOT_FOUND", `No user message "${entryId}" in this session; GET /fork-messages lists the entries.`);
    open.value.messages.truncateFrom(entryId);
    return ok({ text: textOf(entry) });
  }

  async uiResponse(response: UiResponseRequest): Promise<Result<{ ok: true }>> {
    const open = this.use();
    if (!open.ok) return open;
    if (!this.loop.gate()?.answer(response)) {
      return fail("UNKNOWN_EXTENSION_UI", `No request "${response.id}" waits for an answer: it is unknown or was answered already.`);
    }
    return ok({ ok: true });
  }

  /** POST /ui-rpc: answered on the stream as a `ui-rpc` control frame. */
  async uiRpc(request: UiRpcRequest): Promise<Result<{ ok: true }>> {
    const open = this.use();
    if (!open.ok) return open;
    const stores = open.value;
    const response = answerUiRpc(request, { results: () => stores.results.summaries(), result: (id) => stores.results.get(id), stats: () => this.statsOf(stores) });
    this.emitControl(stores, { control: "ui-rpc", response });
    this.flush();
    return ok({ ok: true });
  }

  async completion(trigger: string | undefined, query: string): Promise<Result<{ triggers: typeof COMPLETION_TRIGGERS } | { items: CompletionItem[] }>> {
    const open = this.use();
    if (!open.ok) return open;
    if (trigger === undefined) return ok({ triggers: COMPLETION_TRIGGERS });
    const items = completionItems(trigger, query, () => open.value.results.summaries());
    if (!items) return fail("VALIDATION_FAILED", `Unknown trigger "${trigger}"; GET /completion/triggers lists them.`, ["trigger"]);
    return ok({ items });
  }

  /** GET …/stream arrives here: replay after Last-Event-ID, then live frames. */
  override async fetch(request: Request): Promise<Response> {
    const open = this.active();
    if (!open.ok) return Response.json(open.error, { status: open.error.code === "SESSION_ENDED" ? 409 : 404 });
    const heartbeatMs = Number(request.headers.get("x-heartbeat-ms")) || 15_000;
    const lastEventId = Number(request.headers.get("last-event-id") ?? "");
    const initial: string[] = [];
    if (Number.isInteger(lastEventId) && lastEventId >= 0 && request.headers.has("last-event-id")) {
      const { frames, gap, oldestId } = open.value.frames.since(lastEventId);
      if (gap) {
        initial.push(
          this.controlText({
            control: "resync",
            lastEventId,
            oldestAvailableId: oldestId,
            message: "Some frames after Last-Event-ID are no longer buffered; reload GET /api/sessions/:id/messages, then follow the stream.",
          }),
        );
      }
      initial.push(...frames.map((f) => f.text));
    }
    // Replay and registration happen in one synchronous step, so no frame falls between them.
    const body = this.hub.subscribe(initial, heartbeatMs);
    // After subscribing, so that this stream sees a cut-short turn being closed.
    this.recoverTurn(open.value);
    open.value.activity.mark();
    await this.touch();
    return new Response(body, {
      headers: {
        "content-type": "text/event-stream",
        "cache-control": "no-cache",
        connection: "keep-alive",
        "x-accel-buffering": "no",
        "content-encoding": "identity",
      },
    });
  }

  async state(settings = this.settings): Promise<Result<object>> {
    const current = this.current;
    const stores = this.stores;
    if (!stores || !current) return notFound();
    if (current.status === "active") this.recoverTurn(stores);
    const model = settings && resolveModel(settings.agent, this.agent.selection, current.model);
    return ok({
      sessionId: current.sessionId,
      status: current.status,
      thinkingLevel: this.thinkingLevel(),
      isStreaming: this.running.size > 0 || this.loop.running,
      isCompacting: false,
      steeringMode: "all",
      followUpMode: "one-at-a-time",
      autoCompactionEnabled: false,
      messageCount: stores.messages.count(),
      pendingMessageCount: this.running.size + this.loop.pending(),
      model: model?.ok
        ? { provider: model.value.provider.name, id: model.value.modelId, name: model.value.entry?.name ?? model.value.modelId, api: model.value.provider.settings.api }
        : this.agent.selection
          ? { provider: this.agent.selection.provider, id: this.agent.selection.modelId }
          : null,
      subscribers: this.hub.size(),
      lastEventId: stores.frames.lastId(),
      source: current.source,
      ...(current.cwd !== undefined && { cwd: current.cwd }),
      createdAt: current.createdAt,
    });
  }

  async stats(): Promise<Result<object>> {
    const stores = this.stores;
    if (!stores || !this.current) return notFound();
    return ok(this.statsOf(stores));
  }

  async history(): Promise<Result<SessionMessage[]>> {
    const stores = this.stores;
    if (!stores || !this.current) return notFound();
    if (this.current.status === "active") this.recoverTurn(stores);
    return ok(stores.messages.list());
  }

  /** Idle sessions end: results and history go, a record stays so that the session answers 409 SESSION_ENDED. */
  override async alarm(): Promise<void> {
    const stores = this.stores;
    if (!stores || this.current?.status !== "active") return;
    const busyNow = this.running.size > 0 || this.loop.running;
    const deadline = busyNow ? Date.now() + this.limits.idleMs : stores.activity.last() + this.limits.idleMs;
    if (deadline > Date.now()) {
      await this.ctx.storage.setAlarm(deadline);
      return;
    }
    this.alarmSet = false;
    this.flush();
    stores.results.clear();
    stores.messages.clear();
    stores.latency.clear();
    this.current = { ...this.current, status: "ended", endedReason: "idle" };
    stores.record.write(this.current);
    this.hub.closeAll(encodeSseFrame(stores.frames.lastId() + 1, this.control({ control: "error", code: "idle", message: "session ended: idle" })));
    // An ended session cannot be streamed again (409), so its replay buffer has no reader left.
    stores.frames.clear();
  }

  private statsOf(stores: SessionStores) {
    const roles = stores.messages.roles();
    const counts = { user: roles.filter((role) => role === "user").length, assistant: roles.filter((role) => role === "assistant").length, total: roles.length };
    return sessionStats(this.current?.sessionId ?? "", stores.counters.all(), stores.latency.summary(), counts, this.agent.tokens, this.agent.cost);
  }

  private thinkingLevel(): ThinkingLevel {
    return this.agent.thinkingLevel ?? this.settings?.agent.defaultThinkingLevel ?? "medium";
  }

  /** The session, active, for a request; a turn a restart cut short is closed first. */
  private use(settings?: Settings): Result<SessionStores> {
    const open = this.active();
    if (!open.ok) return open;
    if (settings) this.settings = settings;
    this.recoverTurn(open.value);
    return open;
  }

  /** Closes a turn a restart cut short: an `interrupted` error and `finish` on the stream, its message's unfinished tool calls marked. */
  private recoverTurn(stores: SessionStores): void {
    const marker = this.interrupted;
    if (!marker || this.loop.running) return;
    this.interrupted = undefined;
    // After a restart the settings may not be known yet; these chunks carry no page content.
    const maxStored = this.settings?.config.maxStoredContentChars ?? Number.POSITIVE_INFINITY;
    const emit = (chunk: UiMessageChunk) => this.emit(stores, chunk, maxStored);
    emit({ type: "start", messageId: marker.messageId });
    emit({ type: "error", errorText: "interrupted: the turn was cut short when the session restarted; send the message again." });
    emit({ type: "finish" });
    const history = stores.messages.list();
    if (!history.some((m) => m.id === marker.user.id)) stores.messages.put(marker.user);
    const message = history.find((m) => m.id === marker.messageId);
    if (message) stores.messages.put(closeInterruptedMessage(message));
    this.ctx.storage.delete(TURN_KEY).catch(() => {}); // a marker left behind only closes the turn again
    this.flush();
  }

  private async userMessage(stores: SessionStores, input: UserInput, settings: Settings) {
    return buildUserMessage(input, {
      newId: () => crypto.randomUUID(),
      keepImage: async (bytes, mimeType) => {
        const id = newAttachmentId();
        const sessionId = this.current?.sessionId ?? "";
        await putAttachment(this.env.ATTACHMENTS, { id, name: `${id}.${mimeType.split("/")[1] ?? "img"}`, mimeType, size: bytes.length, origin: "inline", sessionId }, new Blob([bytes]));
        stores.attachments.add(id);
        return id;
      },
      attachment: (id) => this.attachmentFile(id),
      maxTextChars: settings.config.maxContentChars,
    });
  }

  private async attachmentFile(id: string) {
    if (!this.stores?.attachments.has(id)) return undefined;
    const stored = await getAttachment(this.env.ATTACHMENTS, id);
    if (!stored) return undefined;
    return { name: stored.attachment.name, mimeType: stored.attachment.mimeType, bytes: new Uint8Array(await new Response(stored.body).arrayBuffer()) };
  }

  private toolContext(stores: SessionStores, settings: Settings, signal: AbortSignal | undefined, steps: Record<string, number> = {}): ToolContext {
    const { config, providerKeys, operatorUrls } = settings;
    const alive = () => this.stores === stores;
    return {
      config,
      providerKeys,
      operatorUrls: operatorUrls.search,
      sidecar: this.sidecar,
      attachment: (id) => this.attachmentFile(id),
      store: {
        save: (result, maxStored) => alive() && stores.results.save(result, maxStored),
        get: (responseId) => stores.results.get(responseId),
      },
      cache: createSearchCache(this.env.CACHE, config.cache),
      record: {
        count: (counter, by) => alive() && stores.counters.add(counter, by),
        latency: (provider, ms) => alive() && stores.latency.record(provider, ms),
        step: (step, ms) => {
          steps[step] = (steps[step] ?? 0) + ms;
        },
      },
      limiter: this.limiterFor(config),
      ...(signal && { signal }),
      newResponseId: () => crypto.randomUUID(),
    };
  }

  /** A direct call's chunks and messages: the live stream gets them whole, stored copies are capped. */
  private toolSink(stores: SessionStores, config: WebConfig): ToolCallSink {
    const alive = () => this.stores === stores;
    return {
      emit: (chunk) => alive() && this.emit(stores, chunk, config.maxStoredContentChars),
      saveMessage: (message: ToolUiMessage) => {
        if (alive()) stores.messages.put(capContent(message, config.maxStoredContentChars));
      },
    };
  }

  /** A chunk goes out live whole; its stored copy (for replay) is capped to web.maxStoredContentChars and a row's size. */
  private emit(stores: SessionStores, chunk: UiMessageChunk, maxStoredChars: number): void {
    const live = { kind: "uiMessageChunk" as const, protocolVersion: PROTOCOL_VERSION, chunk };
    const liveJson = JSON.stringify(live);
    const capped = capContent(chunk, maxStoredChars);
    const storedJson = capped === chunk ? fitRow(live, undefined, liveJson) : fitRow({ ...live, chunk: capped });
    const id = stores.frames.append("uiMessageChunk", storedJson);
    this.hub.broadcast(encodeSseData(id, "uiMessageChunk", liveJson));
    this.scheduleFlush();
  }

  private emitControl(stores: SessionStores, payload: ControlPayload): void {
    const json = fitRow(this.control(payload));
    this.hub.broadcast(encodeSseData(stores.frames.append("control", json), "control", json));
    this.scheduleFlush();
  }

  /** While a turn streams, what it holds in memory is written at least every TURN_FLUSH_MS. */
  private scheduleFlush(): void {
    if (!this.loop.running || this.flushTimer !== null) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = null;
      this.flush();
    }, TURN_FLUSH_MS);
  }

  private flush(): void {
    if (!this.stores) return;
    if (this.usageDirty) this.stores.agent.write(this.agent);
    this.usageDirty = false;
    flushSessionStores(this.stores);
  }

  /** Makes sure the idle alarm is set: once, then moved only when it fires (no alarm write per call). Activity is marked when a call's writes are flushed. */
  private async touch(): Promise<void> {
    if (this.alarmSet) return;
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now() + this.limits.idleMs);
    this.alarmSet = true;
  }

  private control(payload: ControlPayload) {
    return { kind: "control" as const, protocolVersion: PROTOCOL_VERSION, payload };
  }

  /** A control frame that is not part of the session's numbered history (about one stream only). */
  private controlText(payload: ControlPayload): string {
    return encodeSseFrame(undefined, this.control(payload));
  }

  private active(): Result<SessionStores> {
    const current = this.current;
    if (!this.stores || !current) return notFound();
    if (current.status === "ended") return fail("SESSION_ENDED", `Session ${current.sessionId} has ended (${current.endedReason ?? "deleted"}); create a new one.`);
    return ok(this.stores);
  }

  /** The limiter follows web.concurrency; a changed setting takes effect on the next call. */
  private limiterFor(config: WebConfig): HostLimiter {
    const { maxConcurrent, maxQueueSize } = config.concurrency;
    const key = `${maxConcurrent}/${maxQueueSize}`;
    if (this.limiter?.key !== key) {
      this.limiter = { key, limiter: createHostLimiter({ maxConcurrent, maxPerHost: maxConcurrent, maxQueue: maxQueueSize }) };
    }
    return this.limiter.limiter;
  }
}

/** A message's text parts, joined. */
function textOf(message: SessionMessage): string {
  return message.parts.flatMap((part) => (part.type === "text" && typeof part.text === "string" ? [part.text] : [])).join("\n");
}
