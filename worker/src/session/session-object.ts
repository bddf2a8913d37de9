import { createHostLimiter, encodeSseFrame, fail, ok, PROTOCOL_VERSION, type HostLimiter, type Result, type SseFrame, type ToolName } from "@edge-web/shared";
import { DurableObject } from "cloudflare:workers";
import { createSearchCache } from "../cache/search-cache.ts";
import type { ToolSettings } from "../config/load-tool-settings.ts";
import type { Env } from "../env.ts";
import { createSidecarClient } from "../sidecar-client.ts";
import type { ToolAnswer } from "../tools/tool.ts";
import { TOOLS } from "../tools/tool-registry.ts";
import { createFrameLog, type FrameLog } from "./frame-log.ts";
import { createMessageLog, type MessageLog } from "./message-log.ts";
import { createProviderLatency, type ProviderLatency } from "./provider-latency.ts";
import { createResultStore, type ResultStore } from "./result-store.ts";
import { runToolCall } from "./run-tool-call.ts";
import { createSessionCounters, type SessionCounters } from "./session-counters.ts";
import { createSessionRecordStore, type SessionRecord, type SessionRecordStore } from "./session-record.ts";
import { createSessionActivity, type SessionActivity } from "./session-activity.ts";
import { sessionStats } from "./session-stats.ts";
import { createStreamHub, type StreamHub } from "./stream-hub.ts";

const positive = (raw: string | undefined, fallback: number) => {
  const n = Number(raw);
  return Number.isInteger(n) && n > 0 ? n : fallback;
};

/** One per session: its record, results, history, counters and live streams. Logic lives in plain modules. */
export class SessionObject extends DurableObject<Env> {
  private readonly record: SessionRecordStore;
  private readonly results: ResultStore;
  private readonly counters: SessionCounters;
  private readonly messages: MessageLog;
  private readonly latency: ProviderLatency;
  private readonly frames: FrameLog;
  private readonly hub: StreamHub;
  private readonly idleMs: number;
  private readonly activity: SessionActivity;
  private inFlight = 0;
  private limiter?: { key: string; limiter: HostLimiter };

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const sql = ctx.storage.sql;
    this.record = createSessionRecordStore(sql);
    this.results = createResultStore(sql);
    this.counters = createSessionCounters(sql);
    this.messages = createMessageLog(sql, positive(env.SESSION_MAX_MESSAGES, 1_000));
    this.latency = createProviderLatency(sql);
    const replayFrames = positive(env.SSE_REPLAY_FRAMES, 1_000);
    this.frames = createFrameLog(sql, () => replayFrames);
    this.hub = createStreamHub({
      maxPending: positive(env.SSE_MAX_PENDING_FRAMES, 1_000),
      overflowText: () => this.controlText({ control: "error", code: "slow-consumer", message: "This stream fell too far behind and was closed; reconnect with Last-Event-ID to resume." }),
    });
    this.idleMs = positive(env.SESSION_IDLE_MS, 24 * 60 * 60 * 1000);
    this.activity = createSessionActivity(sql);
  }

  async create(record: Omit<SessionRecord, "status" | "createdAt">): Promise<void> {
    this.record.write({ ...record, status: "active", createdAt: Date.now() });
    await this.touch();
  }

  async describe(): Promise<SessionRecord | undefined> {
    return this.record.read();
  }

  /** Ends the session: stored results and history are deleted, open streams told why and closed. */
  async end(reason: string): Promise<Result<{ ok: true }>> {
    const current = this.active();
    if (!current.ok) return current;
    this.results.clear();
    this.messages.clear();
    this.latency.clear();
    this.record.write({ ...current.value, status: "ended", endedReason: reason });
    const frame = this.frames.append(this.control({ control: "error", code: reason, message: `session ended: ${reason}` }));
    this.hub.closeAll(frame.text);
    // An ended session cannot be streamed again (409), so its replay buffer has no reader left.
    this.frames.clear();
    await this.ctx.storage.deleteAlarm();
    return ok({ ok: true });
  }

  async callTool(name: ToolName, params: unknown, settings: ToolSettings): Promise<ToolAnswer<unknown>> {
    const current = this.active();
    if (!current.ok) return current;
    await this.touch();
    const { config, providerKeys } = settings;
    this.inFlight++;
    try {
      return await runToolCall(
        TOOLS[name],
        params,
        {
          config,
          sidecar: createSidecarClient(this.env),
          store: this.results,
          cache: createSearchCache(this.env.CACHE, config.cache),
          counters: this.counters,
          latency: this.latency,
          providerKeys,
          limiter: this.limiterFor(config),
          newResponseId: () => crypto.randomUUID(),
        },
        {
          emit: (chunk) => this.hub.broadcast(this.frames.append({ kind: "uiMessageChunk", protocolVersion: PROTOCOL_VERSION, chunk }).text),
          saveMessage: (message) => this.messages.put(message),
        },
        () => crypto.randomUUID(),
      );
    } finally {
      this.inFlight--;
    }
  }

  /** GET …/stream arrives here: replay after Last-Event-ID, then live frames. */
  override async fetch(request: Request): Promise<Response> {
    const current = this.active();
    if (!current.ok) return Response.json(current.error, { status: current.error.code === "SESSION_ENDED" ? 409 : 404 });
    const heartbeatMs = positive(request.headers.get("x-heartbeat-ms") ?? undefined, 15_000);
    const lastEventId = Number(request.headers.get("last-event-id") ?? "");
    const initial: string[] = [];
    if (Number.isInteger(lastEventId) && lastEventId >= 0 && request.headers.has("last-event-id")) {
      const { frames, gap, oldestId } = this.frames.since(lastEventId);
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

  async state() {
    const current = this.record.read();
    if (!current) return undefined;
    return {
      sessionId: current.sessionId,
      status: current.status,
      isStreaming: this.inFlight > 0,
      isCompacting: false,
      messageCount: this.messages.count(),
      pendingMessageCount: this.inFlight,
      subscribers: this.hub.size(),
      lastEventId: this.frames.lastId(),
      source: current.source,
      ...(current.cwd !== undefined && { cwd: current.cwd }),
      ...(current.model !== undefined && { model: current.model }),
      createdAt: current.createdAt,
    };
  }

  async stats() {
    const current = this.record.read();
    if (!current) return undefined;
    return sessionStats(current.sessionId, this.counters.all(), this.latency.summary(), this.messages.count());
  }

  async history() {
    return this.messages.list();
  }

  /** Idle sessions end; activity since the alarm was set (or a call still running) moves the deadline. */
  override async alarm(): Promise<void> {
    if (this.record.read()?.status !== "active") return;
    const deadline = this.inFlight > 0 ? Date.now() + this.idleMs : this.activity.last() + this.idleMs;
    if (deadline > Date.now()) await this.ctx.storage.setAlarm(deadline);
    else await this.end("idle");
  }

  /** Notes activity; the alarm is set once and moved only when it fires (no alarm write per call). */
  private async touch(): Promise<void> {
    this.activity.mark();
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now() + this.idleMs);
  }

  private control(payload: Extract<SseFrame, { kind: "control" }>["payload"]): SseFrame {
    return { kind: "control", protocolVersion: PROTOCOL_VERSION, payload };
  }

  /** A control frame that is not part of the session's numbered history (about one stream only). */
  private controlText(payload: Extract<SseFrame, { kind: "control" }>["payload"]): string {
    return encodeSseFrame(undefined, this.control(payload));
  }

  private active(): Result<SessionRecord> {
    const record = this.record.read();
    if (!record) return fail("SESSION_NOT_FOUND", "Session not found; create one with POST /api/sessions.");
    if (record.status === "ended") return fail("SESSION_ENDED", `Session ${record.sessionId} has ended (${record.endedReason ?? "deleted"}); create a new one.`);
    return ok(record);
  }

  /** The limiter follows web.concurrency; a changed setting takes effect on the next call. */
  private limiterFor(config: ToolSettings["config"]): HostLimiter {
    const { maxConcurrent, maxQueueSize } = config.concurrency;
    const key = `${maxConcurrent}/${maxQueueSize}`;
    if (this.limiter?.key !== key) {
      this.limiter = { key, limiter: createHostLimiter({ maxConcurrent, maxPerHost: maxConcurrent, maxQueue: maxQueueSize }) };
    }
    return this.limiter.limiter;
  }
}
