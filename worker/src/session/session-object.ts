import {
  createHostLimiter,
  encodeSseData,
  encodeSseFrame,
  fail,
  ok,
  PROTOCOL_VERSION,
  type ControlPayload,
  type HostLimiter,
  type Result,
  type ToolName,
  type UiMessageChunk,
  type WebConfig,
} from "@edge-web/shared";
import { DurableObject } from "cloudflare:workers";
import { createSearchCache } from "../cache/search-cache.ts";
import type { ToolSettings } from "../config/effective-config.ts";
import type { Env } from "../env.ts";
import { createSidecarClient, type SidecarClient } from "../sidecar-client.ts";
import { capContent } from "../tools/cap-content.ts";
import type { ToolAnswer, ToolContext } from "../tools/tool.ts";
import { TOOLS } from "../tools/tool-registry.ts";
import { fitRow } from "./fit-row.ts";
import type { ToolUiMessage } from "./message-log.ts";
import { runToolCall, type ToolCallSink } from "./run-tool-call.ts";
import type { SessionRecord } from "./session-record.ts";
import { sessionStats } from "./session-stats.ts";
import { flushSessionStores, holdsSession, openSessionStores, sessionLimits, type SessionLimits, type SessionStores } from "./session-stores.ts";
import { createStreamHub, type StreamHub } from "./stream-hub.ts";
import { logToolCall } from "./tool-call-log.ts";

const notFound = () => fail("SESSION_NOT_FOUND", "Session not found; create one with POST /api/sessions.");

/**
 * One per session: its record, results, history, counters, live streams and running calls. It
 * checks itself whether the session exists and is active; logic lives in plain modules.
 */
export class SessionObject extends DurableObject<Env> {
  private readonly limits: SessionLimits;
  private readonly hub: StreamHub;
  private readonly sidecar: SidecarClient;
  /** Undefined while the object holds no session: never created, or deleted (then nothing of it is stored). */
  private stores?: SessionStores;
  private current?: SessionRecord;
  /** Calls in flight, cancelled together when the session is deleted. */
  private readonly running = new Set<AbortController>();
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
    }
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
   * DELETE: open streams are told and closed, calls in flight cancelled, attachments deleted, and
   * the object's storage wiped, so every endpoint of the session answers 404 afterwards.
   */
  async delete(): Promise<Result<{ ok: true }>> {
    const stores = this.stores;
    if (!stores || !this.current) return notFound();
    const frameId = stores.frames.lastId() + 1;
    this.hub.closeAll(encodeSseFrame(frameId, this.control({ control: "error", code: "deleted", message: "session ended: deleted" })));
    for (const call of this.running) call.abort();
    const attachments = stores.attachments.ids();
    this.stores = undefined;
    this.current = undefined;
    if (attachments.length > 0) await this.env.ATTACHMENTS.delete(attachments);
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    return ok({ ok: true });
  }

  async callTool(name: ToolName, params: unknown, settings: ToolSettings): Promise<ToolAnswer<unknown>> {
    const open = this.active();
    if (!open.ok) return open;
    const stores = open.value;
    await this.touch();
    const { config, providerKeys } = settings;
    // A session deleted while the call runs keeps nothing of it.
    const alive = () => this.stores === stores;
    const cancel = new AbortController();
    const steps: Record<string, number> = {};
    const ctx: ToolContext = {
      config,
      providerKeys,
      sidecar: this.sidecar,
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
      signal: cancel.signal,
      newResponseId: () => crypto.randomUUID(),
    };
    const started = Date.now();
    this.running.add(cancel);
    try {
      const answer = await runToolCall(TOOLS[name], params, ctx, this.sink(stores, config, alive), () => crypto.randomUUID());
      if (alive()) flushSessionStores(stores);
      logToolCall(config.debug, { sessionId: this.current?.sessionId ?? "", tool: name, params, answer, ms: Date.now() - started, steps });
      return alive() ? answer : notFound();
    } finally {
      this.running.delete(cancel);
    }
  }

  /** A call's chunks and messages: the live stream gets them whole, stored copies are capped (web.maxStoredContentChars). */
  private sink(stores: SessionStores, config: WebConfig, alive: () => boolean): ToolCallSink {
    const maxChars = config.maxStoredContentChars;
    return {
      emit: (chunk: UiMessageChunk) => {
        if (!alive()) return;
        const live = { kind: "uiMessageChunk" as const, protocolVersion: PROTOCOL_VERSION, chunk };
        const liveJson = JSON.stringify(live);
        const capped = capContent(chunk, maxChars);
        const storedJson = capped === chunk ? fitRow(live, undefined, liveJson) : fitRow({ ...live, chunk: capped });
        const id = stores.frames.append("uiMessageChunk", storedJson);
        this.hub.broadcast(encodeSseData(id, "uiMessageChunk", liveJson));
      },
      saveMessage: (message: ToolUiMessage) => {
        if (alive()) stores.messages.put(capContent(message, maxChars));
      },
    };
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

  async state(): Promise<Result<object>> {
    const current = this.current;
    if (!this.stores || !current) return notFound();
    return ok({
      sessionId: current.sessionId,
      status: current.status,
      isStreaming: this.running.size > 0,
      isCompacting: false,
      messageCount: this.stores.messages.count(),
      pendingMessageCount: this.running.size,
      subscribers: this.hub.size(),
      lastEventId: this.stores.frames.lastId(),
      source: current.source,
      ...(current.cwd !== undefined && { cwd: current.cwd }),
      ...(current.model !== undefined && { model: current.model }),
      createdAt: current.createdAt,
    });
  }

  async stats(): Promise<Result<object>> {
    const current = this.current;
    if (!this.stores || !current) return notFound();
    return ok(sessionStats(current.sessionId, this.stores.counters.all(), this.stores.latency.summary(), this.stores.messages.count()));
  }

  async history(): Promise<Result<ToolUiMessage[]>> {
    return this.stores ? ok(this.stores.messages.list()) : notFound();
  }

  /** Idle sessions end: results and history go, a record stays so that the session answers 409 SESSION_ENDED. */
  override async alarm(): Promise<void> {
    const stores = this.stores;
    if (!stores || this.current?.status !== "active") return;
    const deadline = this.running.size > 0 ? Date.now() + this.limits.idleMs : stores.activity.last() + this.limits.idleMs;
    if (deadline > Date.now()) {
      await this.ctx.storage.setAlarm(deadline);
      return;
    }
    this.alarmSet = false;
    flushSessionStores(stores);
    stores.results.clear();
    stores.messages.clear();
    stores.latency.clear();
    this.current = { ...this.current, status: "ended", endedReason: "idle" };
    stores.record.write(this.current);
    this.hub.closeAll(encodeSseFrame(stores.frames.lastId() + 1, this.control({ control: "error", code: "idle", message: "session ended: idle" })));
    // An ended session cannot be streamed again (409), so its replay buffer has no reader left.
    stores.frames.clear();
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
