import { createHostLimiter, fail, ok, type HostLimiter, type Result, type ToolName, type WebConfig } from "@edge-web/shared";
import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env.ts";
import { createSidecarClient } from "../sidecar-client.ts";
import { TOOLS } from "../tools/tool-registry.ts";
import { createResultStore, type ResultStore } from "./result-store.ts";
import { createSessionRecordStore, type SessionRecord, type SessionRecordStore } from "./session-record.ts";

/** One per session: its record, stored results and concurrency limit. Logic lives in plain modules. */
export class SessionObject extends DurableObject<Env> {
  private readonly record: SessionRecordStore;
  private readonly results: ResultStore;
  private limiter?: { key: string; limiter: HostLimiter };

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.record = createSessionRecordStore(ctx.storage.sql);
    this.results = createResultStore(ctx.storage.sql);
  }

  async create(record: Omit<SessionRecord, "status" | "createdAt">): Promise<void> {
    this.record.write({ ...record, status: "active", createdAt: Date.now() });
  }

  async describe(): Promise<SessionRecord | undefined> {
    return this.record.read();
  }

  /** Ends the session: stored results are deleted, the record stays as a tombstone. */
  async end(reason: string): Promise<Result<{ ok: true }>> {
    const current = this.active();
    if (!current.ok) return current;
    this.results.clear();
    this.record.write({ ...current.value, status: "ended", endedReason: reason });
    return ok({ ok: true });
  }

  async callTool(name: ToolName, params: unknown, config: WebConfig): Promise<Result<unknown>> {
    const current = this.active();
    if (!current.ok) return current;
    const tool = TOOLS[name];
    if (!tool) return fail("ROUTE_NOT_FOUND", `Unknown tool "${name}".`);
    return tool.run(params, {
      config,
      sidecar: createSidecarClient(this.env),
      store: this.results,
      limiter: this.limiterFor(config),
      newResponseId: () => crypto.randomUUID(),
    });
  }

  private active(): Result<SessionRecord> {
    const record = this.record.read();
    if (!record) return fail("SESSION_NOT_FOUND", "Session not found; create one with POST /api/sessions.");
    if (record.status === "ended") return fail("SESSION_ENDED", `Session ${record.sessionId} has ended (${record.endedReason ?? "deleted"}); create a new one.`);
    return ok(record);
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
