import { createSemaphore, type Semaphore, type ToolName, type WebConfig } from "@edge-web/shared";
import type { StoredFile } from "../agent/context/user-message.ts";
import { newAttachmentId } from "../attachments/attachment-id.ts";
import { getAttachment, putAttachment } from "../attachments/attachment-store.ts";
import { createFetchCache } from "../cache/fetch-cache.ts";
import { createRobotsCache } from "../cache/robots-cache.ts";
import { createSearchCache } from "../cache/search-cache.ts";
import type { Settings } from "../config/resolve-settings.ts";
import type { Env } from "../env.ts";
import { createSidecarClient, type SidecarClient } from "../sidecar-client.ts";
import { crawlPage, type CrawlPageOutcome, type CrawlPageRequest } from "../tools/crawl-page.ts";
import type { ToolAnswer, ToolContext } from "../tools/tool.ts";
import { TOOLS } from "../tools/tool-registry.ts";
import { ANSWER_RESERVE_MS } from "../tools/tool-deadline.ts";
import { runToolCall } from "./run-tool-call.ts";
import { sessionNotFound, type HeldSession } from "./held-session.ts";
import type { SessionStores } from "./session-stores.ts";
import type { SessionStream } from "./session-stream.ts";
import type { ObjectTrace } from "./object-trace.ts";
import { logToolCall } from "./tool-call-log.ts";

/**
 * What the session's tool calls run with: their context (settings, sidecar, stores, cache, the
 * session's limiter), the session's attachment files, and the direct calls in flight (cancelled
 * together when the session is deleted).
 */
export class SessionTools {
  /** Direct tool calls in flight. */
  readonly running = new Set<AbortController>();
  private readonly env: Env;
  private readonly held: HeldSession;
  private readonly stream: SessionStream;
  private readonly sidecar: SidecarClient;
  private limiter?: { key: string; limiter: Semaphore };

  /** `sessionKey` names the session to the sidecar (its object's id), which shares render slots fairly between sessions. */
  constructor(env: Env, held: HeldSession, stream: SessionStream, sessionKey: string) {
    this.env = env;
    this.held = held;
    this.stream = stream;
    this.sidecar = createSidecarClient(env, sessionKey);
  }

  /**
   * A direct call (HTTP, MCP, slash command): its frames and message on the session's stream, its
   * writes in one commit after it. Its deadline runs from `receivedAt`, when the worker received it.
   * With web.debug "trace", `trace` gets the call's boundaries and steps, and the caller writes the
   * log line (it knows the request's own boundaries too).
   */
  async call(stores: SessionStores, name: ToolName, params: unknown, settings: Settings, receivedAt?: number, trace?: ObjectTrace): Promise<ToolAnswer<unknown>> {
    const { config } = settings;
    const alive = this.held.alive(stores);
    const cancel = new AbortController();
    const steps: Record<string, number> = {};
    const started = Date.now();
    this.running.add(cancel);
    try {
      const ctx = { ...this.context(stores, settings, cancel.signal, steps), ...(receivedAt !== undefined && { startedAt: receivedAt, reserveMs: ANSWER_RESERVE_MS }) };
      const answer = await runToolCall(TOOLS[name], params, ctx, this.stream.sink(stores, () => config.maxStoredContentChars, true), () => crypto.randomUUID());
      const ran = Date.now();
      // A call that stored a result is committed in the task after its answer, so a restart soon
      // after finds the result the answer names, yet the answer does not wait for the commit's
      // fsync. Any other call's frames, message and counters (a failure, a read) are written within
      // a second, with whatever comes next: under a burst of timeouts, a commit each held the
      // thread every session shares.
      if (alive()) {
        if (stores.results.unwritten()) this.held.flushNext();
        else this.held.flushSoon();
      }
      if (trace) Object.assign(trace, { ran, flushed: Date.now(), steps });
      else logToolCall(config.debug, { sessionId: this.held.current?.sessionId ?? "", tool: name, params, answer, ms: Date.now() - started, steps });
      return alive() ? answer : sessionNotFound();
    } finally {
      this.running.delete(cancel);
    }
  }

  /** A crawl's page (crawl/consume-crawl-queue.ts), fetched and stored as fetch_content would; its result committed right after. */
  async crawl(stores: SessionStores, request: CrawlPageRequest, settings: Settings): Promise<CrawlPageOutcome> {
    const cancel = new AbortController();
    this.running.add(cancel);
    try {
      const outcome = await crawlPage(this.context(stores, settings, cancel.signal), request);
      if (this.held.alive(stores)() && stores.results.unwritten()) this.held.flushNext();
      return outcome;
    } finally {
      this.running.delete(cancel);
    }
  }

  cancelAll(): void {
    for (const call of this.running) call.abort();
  }

  /** One call's context; `steps` collects the milliseconds of its pipeline steps (web.debug). */
  context(stores: SessionStores, settings: Settings, signal: AbortSignal | undefined, steps: Record<string, number> = {}): ToolContext {
    const { config, providerKeys, operatorUrls } = settings;
    const alive = this.held.alive(stores);
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
      fetchCache: createFetchCache(this.env.CACHE, config.fetchCache),
      robotsCache: createRobotsCache(this.env.CACHE),
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

  /** An attachment of this session (another session's id is simply not there). */
  async attachmentFile(id: string): Promise<StoredFile | undefined> {
    if (!this.held.stores?.attachments.has(id)) return undefined;
    const stored = await getAttachment(this.env.ATTACHMENTS, id);
    if (!stored) return undefined;
    return { name: stored.attachment.name, mimeType: stored.attachment.mimeType, bytes: new Uint8Array(await new Response(stored.body).arrayBuffer()) };
  }

  /** An image sent inline with a message, kept as an attachment of the session; answers its id. */
  async keepImage(stores: SessionStores, bytes: Uint8Array, mimeType: string): Promise<string> {
    const id = newAttachmentId();
    const sessionId = this.held.current?.sessionId ?? "";
    await putAttachment(this.env.ATTACHMENTS, { id, name: `${id}.${mimeType.split("/")[1] ?? "img"}`, mimeType, size: bytes.length, origin: "inline", sessionId }, new Blob([bytes]));
    stores.attachments.add(id);
    return id;
  }

  /** The limiter follows web.concurrency; a changed setting takes effect on the next call. */
  private limiterFor(config: WebConfig): Semaphore {
    const { maxConcurrent, maxQueueSize } = config.concurrency;
    const key = `${maxConcurrent}/${maxQueueSize}`;
    if (this.limiter?.key !== key) {
      this.limiter = { key, limiter: createSemaphore({ maxConcurrent, maxQueue: maxQueueSize }) };
    }
    return this.limiter.limiter;
  }
}
