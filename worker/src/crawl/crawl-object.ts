import { DurableObject } from "cloudflare:workers";
import type { CrawlEvent, CrawlState } from "@edge-web/shared";
import type { Env } from "../env.ts";
import type { CrawlPageOutcome } from "../tools/crawl-page.ts";
import { CrawlFrontier, type CrawlJob, type PageTask } from "./crawl-frontier.ts";
import type { CrawlMessage } from "./crawl-message.ts";
import { crawlQuota } from "./crawl-quota.ts";
import { publishCrawlEvent } from "./publish-crawl-event.ts";
import { seedFromSitemaps } from "./seed-from-sitemaps.ts";
import { vetHosts } from "./vet-hosts.ts";

/** A page's outcome that says its session can store nothing more. */
const SESSION_GONE = new Set(["SESSION_ENDED", "SESSION_NOT_FOUND"]);

/**
 * One crawl (idFromName(crawlId)): its frontier, seen set, counts and bounds in its SQLite, the pages
 * handed to the crawl queue a few at a time as hosts' turns come, an alarm for the next turn, an
 * unanswered page or the crawl's time. The queue's consumer claims each page here before fetching it
 * and settles it here after; a message delivered twice finds its page settled and does nothing.
 * Everything it stores survives a restart: the alarm picks the crawl up again.
 */
export class CrawlObject extends DurableObject<Env> {
  readonly #frontier: CrawlFrontier;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#frontier = new CrawlFrontier(ctx.storage.sql);
  }

  /** Starts the crawl described (once: a repeated start answers the crawl as it is). */
  async start(job: CrawlJob): Promise<CrawlState> {
    if (!this.#frontier.job) {
      this.#frontier.begin(job);
      await this.#publish({ crawlId: job.crawlId, event: "started", url: job.url, limit: job.bounds.limit });
      await this.#advance();
    }
    return this.#frontier.state(0);
  }

  /** The crawl for its session, or undefined when this object holds no crawl of that session. */
  async read(sessionId: string, cursor: number): Promise<CrawlState | undefined> {
    const job = this.#frontier.job;
    if (job?.sessionId !== sessionId) return undefined;
    // A running crawl always has its alarm set; one whose alarm was lost (a runtime that did not keep it over a restart) is woken here.
    if (job.status === "running" && (await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now());
    return this.#frontier.state(cursor);
  }

  /** Cancels the crawl: nothing new starts; pages being fetched settle as they come. */
  async cancel(sessionId: string): Promise<CrawlState | undefined> {
    const job = this.#frontier.job;
    if (job?.sessionId !== sessionId) return undefined;
    await this.#finish("cancelled", "Cancelled by the caller.");
    return this.#frontier.state(0);
  }

  /** The page a queue message names, with what fetching it needs, while it is still to be fetched. */
  claim(seq: number, attempt: number): (PageTask & { job: CrawlJob }) | undefined {
    const task = this.#frontier.claim(seq, attempt);
    return task && { ...task, job: this.#frontier.job! };
  }

  /** How a claimed page settled: its links' new hosts vetted, the page recorded once, its links judged, the next pages handed out. */
  async settle(seq: number, outcome: CrawlPageOutcome): Promise<void> {
    if (outcome.ok && this.#frontier.job?.status === "running") {
      const origins = this.#frontier.hostsToVet(outcome.links);
      if (origins.length > 0) this.#frontier.recordVerdicts(await vetHosts(this.env, origins));
    }
    const page = this.#frontier.settle(seq, outcome, Date.now());
    const job = this.#frontier.job!;
    // A session that ended or was deleted takes no more pages: its crawl ends with it.
    if (!outcome.ok && SESSION_GONE.has(outcome.code)) return this.#finish("failed", `The crawl's session ended (${outcome.code}); nothing more is fetched.`);
    // The pages that may start now go out first: the progress frame does not hold them back.
    if (job.status === "running") await this.#send(this.#frontier.next(Date.now()));
    if (page) await this.#publish({ crawlId: job.crawlId, event: "page", page, counts: { ...job.counts } });
    await this.#advance();
  }

  override async alarm(): Promise<void> {
    await this.#advance();
  }

  /** Ends the crawl at its bounds or when its frontier is empty; else hands out what may start now and sets the alarm for what comes next. */
  async #advance(): Promise<void> {
    const job = this.#frontier.job;
    if (!job || job.status !== "running") return;
    const now = Date.now();
    if (now >= job.bounds.endsAt) return this.#finish("completed", `The crawl reached its time (web.crawl.maxDurationMs, ${job.bounds.endsAt - job.createdAt} ms).`);
    if (job.counts.bytes >= job.bounds.maxBytes) return this.#finish("completed", `The crawl reached its bytes (web.crawl.maxBytes, ${job.bounds.maxBytes}).`);
    if (this.#frontier.takeSitemapSeeding()) {
      const seeds = await seedFromSitemaps(this.env, job);
      this.#frontier.discover(seeds, 1);
    }
    await this.#send(this.#frontier.next(now));
    if (this.#frontier.drained()) return this.#finish("completed");
    const wakeAt = this.#frontier.wakeAt();
    if (wakeAt !== undefined) await this.ctx.storage.setAlarm(Math.max(wakeAt, Date.now() + 1));
  }

  /** Pages handed out, to the crawl queue. */
  async #send(tasks: PageTask[]): Promise<void> {
    const { crawlId } = this.#frontier.job!;
    if (tasks.length > 0) await this.env.CRAWL_QUEUE.sendBatch(tasks.map((task) => ({ body: { crawlId, seq: task.seq, attempt: task.attempt } satisfies CrawlMessage })));
  }

  async #finish(status: "completed" | "cancelled" | "failed", reason?: string): Promise<void> {
    const job = this.#frontier.job!;
    if (job.status !== "running") return;
    this.#frontier.finish(status, Date.now(), reason);
    await this.ctx.storage.deleteAlarm();
    await crawlQuota(this.env).release(job);
    await this.#publish({ crawlId: job.crawlId, event: "finished", status, ...(reason && { reason }), counts: { ...job.counts } });
  }

  #publish(event: CrawlEvent): Promise<void> {
    return publishCrawlEvent(this.env, this.#frontier.job!.sessionId, event);
  }
}
