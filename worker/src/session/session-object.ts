import { ok, type CompactResponse, type CrawlEvent, type PromptRequest, type Result, type SessionMessage, type SteerRequest, type ThinkingLevel, type ToolName, type UiResponseRequest, type UiRpcRequest } from "@edge-web/shared";
import { DurableObject } from "cloudflare:workers";
import type { ModelSelection } from "../agent/model/resolve-model.ts";
import type { Settings } from "../config/resolve-settings.ts";
import type { CrawlSession } from "../crawl/crawl-session.ts";
import type { CrawlPageOutcome, CrawlPageRequest } from "../tools/crawl-page.ts";
import type { Env } from "../env.ts";
import { admitMessage } from "./admit-message.ts";
import { completionAnswer } from "./completion-answer.ts";
import { forkHistory, forkMessages } from "./fork-history.ts";
import { IdleAlarm } from "./idle-alarm.ts";
import { NEED_SETTINGS, type NeedSettings } from "./need-settings.ts";
import type { SessionRecord } from "./session-record.ts";
import type { SerializedAnswer } from "./serialized-answer.ts";
import type { ObjectTrace } from "./object-trace.ts";
import { promptOrCommand } from "./prompt-or-command.ts";
import { SessionAgent } from "./session-agent.ts";
import { HeldSession, sessionNotFound } from "./held-session.ts";
import { sessionLimits, type SessionStores } from "./session-stores.ts";
import { createSessionStream, type SessionStream } from "./session-stream.ts";
import { SessionTools } from "./session-tools.ts";
import { answerApproval, answerOnStream } from "./ui-answers.ts";
import { stateOf, statsOf } from "./session-view.ts";

/** A crawl event's stored copy is small (a page's URL, status and counts); this caps one that is not. */
const CRAWL_EVENT_MAX_CHARS = 10_000;

/** Whether a request needs the session to exist, or to be active too (409 SESSION_ENDED otherwise). */
type Need = "exists" | "active";

/**
 * One per session. Each method checks the session through one guard (`open`) and hands over to a
 * plain module: `held` (what is held, agent state, writes), `stream` (SSE frames, replay, closing),
 * `tools` (tool contexts, direct calls, attachment files), `agent` (turns, their marker and
 * recovery, compactions asked for), `idle` (the idle alarm), and the modules the agent's requests
 * go to (admit-message.ts, prompt-or-command.ts, fork-history.ts, ui-answers.ts,
 * completion-answer.ts) and session-view.ts (state, stats).
 */
export class SessionObject extends DurableObject<Env> implements CrawlSession {
  private readonly held: HeldSession;
  private readonly stream: SessionStream;
  private readonly tools: SessionTools;
  private readonly agent: SessionAgent;
  private readonly idle: IdleAlarm;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const limits = sessionLimits(env);
    this.held = new HeldSession(ctx.storage.sql, limits);
    this.stream = createSessionStream(this.held, limits.maxPendingFrames, () => this.agent.loop.running && this.held.flushSoon());
    this.tools = new SessionTools(env, this.held, this.stream, ctx.id.toString());
    this.idle = new IdleAlarm(ctx.storage, limits.idleMs);
    const parts = { env, storage: ctx.storage, held: this.held, stream: this.stream, tools: this.tools };
    this.agent = new SessionAgent({ ...parts, waitUntil: (work) => ctx.waitUntil(work), touch: () => this.idle.touch() });
  }

  /** The one guard: 404 or 409 as `need` says; the request's settings kept; a turn a restart cut short closed first, unless `recover` is false. */
  private open(need: Need, settings?: Settings, recover = true): Result<SessionStores> {
    const open = this.held.open(need);
    if (open.ok && settings) this.held.settings = settings;
    if (open.ok && recover && this.held.current?.status === "active") this.agent.recover(open.value);
    return open;
  }

  async create(record: Omit<SessionRecord, "status" | "createdAt">): Promise<void> {
    this.held.create(record);
    this.agent.recovery.prepare();
    await this.idle.touch();
  }

  async describe(): Promise<SessionRecord | undefined> {
    return this.held.current;
  }

  /** The session's attachments are its own: deleting the session deletes them. */
  async addAttachment(id: string): Promise<Result<true>> {
    const open = this.open("active", undefined, false);
    if (!open.ok) return open;
    open.value.attachments.add(id);
    return ok(true);
  }

  /**
   * DELETE: open streams are told and closed, the turn and calls in flight cancelled, attachments
   * deleted, and the object's storage wiped, so every endpoint of the session answers 404 afterwards.
   */
  async delete(): Promise<Result<{ ok: true }>> {
    const open = this.open("exists", undefined, false);
    if (!open.ok) return open;
    this.stream.close(open.value, "deleted");
    this.held.drop();
    this.tools.cancelAll();
    await this.agent.loop.abort();
    const attachments = open.value.attachments.ids();
    if (attachments.length > 0) await this.env.ATTACHMENTS.delete(attachments);
    await this.idle.clear();
    await this.ctx.storage.deleteAll();
    return ok({ ok: true });
  }

  /**
   * A direct call; `settings` may be the id of those this object holds (`needSettings` when it holds
   * others or none). `receivedAt` (epoch ms) is when the worker received it, where its deadline starts.
   */
  async callTool(name: ToolName, params: unknown, sent: Settings | string, receivedAt?: number): Promise<SerializedAnswer | NeedSettings> {
    const open = this.openWith(sent);
    if ("needSettings" in open || !open.ok) return open;
    const { stores, settings } = open.value;
    const trace: ObjectTrace | undefined = settings.config.debug === "trace" ? { entered: Date.now() } : undefined;
    await this.idle.touch();
    const answer = await this.tools.call(stores, name, params, settings, receivedAt, trace);
    const serialized: SerializedAnswer = answer.ok ? { ok: true, json: JSON.stringify(answer.value), ...(answer.headers && { headers: answer.headers }) } : answer;
    return trace ? { ...serialized, trace } : serialized;
  }

  /**
   * `open("active")` for a call that brings settings: those sent, or those held when sent their id;
   * `needSettings` when the id is not theirs.
   */
  private openWith(sent: Settings | string): Result<{ stores: SessionStores; settings: Settings }> | NeedSettings {
    const settings = typeof sent === "string" ? (this.held.settings?.id === sent ? this.held.settings : undefined) : sent;
    if (!settings) return NEED_SETTINGS;
    const open = this.open("active", settings);
    return open.ok ? ok({ stores: open.value, settings }) : open;
  }

  /** A crawl's page, fetched and stored as fetch_content would (the crawl queue's consumer calls this). */
  async crawlPage(request: CrawlPageRequest, settings: Settings): Promise<CrawlPageOutcome> {
    // The page is read under the settings of now; the session's own (its callers', its turns') stay as they are.
    const open = this.open("active");
    if (!open.ok) return { ok: false, code: open.error.code, message: open.error.message };
    return this.tools.crawl(open.value, request, settings);
  }

  /** A crawl's progress as a `data-crawl` chunk on the session's stream (replayed like every frame). */
  async publishCrawlEvent(event: CrawlEvent): Promise<void> {
    const open = this.open("active", undefined, false);
    if (!open.ok) return;
    this.stream.sink(open.value, () => CRAWL_EVENT_MAX_CHARS).chunk({ type: "data-crawl", data: event });
    this.held.flushSoon();
  }

  async prompt(input: PromptRequest, sent: Settings | string): Promise<Result<{ ok: true }> | NeedSettings> {
    const open = this.openWith(sent);
    return "needSettings" in open || !open.ok ? open : promptOrCommand(this.agent, open.value.stores, input, open.value.settings);
  }

  /** POST /steer: joins the running turn before its next model call; with none running, starts one. */
  async steer(input: SteerRequest, sent: Settings | string): Promise<Result<{ ok: true }> | NeedSettings> {
    const open = this.openWith(sent);
    return "needSettings" in open || !open.ok ? open : admitMessage(this.agent, open.value.stores, input, open.value.settings, "steer");
  }

  /** POST /follow_up: runs as a turn of its own after the running one (at once when idle). */
  async followUp(input: SteerRequest, sent: Settings | string): Promise<Result<{ ok: true }> | NeedSettings> {
    const open = this.openWith(sent);
    return "needSettings" in open || !open.ok ? open : admitMessage(this.agent, open.value.stores, input, open.value.settings, "followUp");
  }

  async abort(): Promise<Result<{ ok: true }>> {
    const open = this.open("active");
    if (!open.ok) return open;
    await this.agent.abort();
    return ok({ ok: true });
  }

  async setModel(selection: ModelSelection): Promise<Result<{ ok: true }>> {
    const open = this.open("active");
    if (!open.ok) return open;
    this.held.choose(open.value, { selection });
    return ok({ ok: true });
  }

  async setThinking(level: ThinkingLevel): Promise<Result<{ ok: true }>> {
    const open = this.open("active");
    if (!open.ok) return open;
    this.held.choose(open.value, { thinkingLevel: level });
    return ok({ ok: true });
  }

  /** POST /compact: the older history summarised for the model; 409 while a turn runs. */
  async compact(instructions: string | undefined, sent: Settings | string): Promise<Result<CompactResponse> | NeedSettings> {
    const open = this.openWith(sent);
    return "needSettings" in open || !open.ok ? open : this.agent.compaction.compact(open.value.settings, instructions);
  }

  async forkMessages(): Promise<Result<Array<{ entryId: string; text: string }>>> {
    const open = this.open("active");
    return open.ok ? forkMessages(open.value) : open;
  }

  async fork(entryId: string): Promise<Result<{ text: string }>> {
    const open = this.open("active");
    return open.ok ? forkHistory(open.value, entryId, this.agent.loop.running) : open;
  }

  async uiResponse(response: UiResponseRequest): Promise<Result<{ ok: true }>> {
    const open = this.open("active");
    return open.ok ? answerApproval(this.agent.loop, response) : open;
  }

  async uiRpc(request: UiRpcRequest): Promise<Result<{ ok: true }>> {
    const open = this.open("active");
    return open.ok ? answerOnStream(this.agent.parts, open.value, request) : open;
  }

  async completion(trigger: string | undefined, query: string) {
    const open = this.open("active");
    return open.ok ? completionAnswer(open.value, trigger, query) : open;
  }

  /** GET …/stream arrives here: replay after Last-Event-ID, then live frames. */
  override async fetch(request: Request): Promise<Response> {
    const open = this.open("active", undefined, false);
    if (!open.ok) return Response.json(open.error, { status: open.error.code === "SESSION_ENDED" ? 409 : 404 });
    const body = this.stream.subscribe(open.value, request.headers, Number(request.headers.get("x-heartbeat-ms")) || 15_000);
    // After subscribing, so that this stream sees a cut-short turn being closed.
    this.agent.recover(open.value);
    open.value.activity.mark();
    await this.idle.touch();
    const headers = { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive", "x-accel-buffering": "no", "content-encoding": "identity" };
    return new Response(body, { headers });
  }

  async state(settings = this.held.settings): Promise<Result<object>> {
    const open = this.open("exists");
    if (!open.ok) return open;
    const now = { busy: this.busy(), compacting: this.agent.host.isCompacting, pending: this.tools.running.size + this.agent.loop.pending(), subscribers: this.stream.subscribers() };
    return ok(stateOf(this.held, open.value, settings, now));
  }

  async stats(): Promise<Result<object>> {
    const open = this.open("exists", undefined, false);
    return open.ok ? ok(statsOf(this.held, open.value)) : open;
  }

  async history(): Promise<Result<SessionMessage[]>> {
    const open = this.open("exists");
    return open.ok ? ok(open.value.messages.list()) : open;
  }

  override async alarm(): Promise<void> {
    await this.idle.fire(this.held, this.stream, this.busy());
  }

  private busy(): boolean {
    return this.tools.running.size > 0 || this.agent.loop.running;
  }
}
