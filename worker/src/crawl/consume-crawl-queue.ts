import type { Env } from "../env.ts";
import { loadSettings } from "../config/load-settings.ts";
import { sessionStub } from "../session/session-stub.ts";
import type { CrawlPageOutcome } from "../tools/crawl-page.ts";
import type { CrawlMessage } from "./crawl-message.ts";
import { crawlStub } from "./crawl-stub.ts";

/**
 * The crawl queue's consumer: each message's page claimed from its crawl (a page already settled, or
 * a crawl that ended, acknowledges the message and does nothing), fetched and stored by its session
 * as fetch_content would, and settled back. A message whose work threw is retried by the queue; its
 * crawl hands the page out again if no answer comes within the page's lease.
 */
export async function consumeCrawlQueue(batch: MessageBatch<CrawlMessage>, env: Env): Promise<void> {
  const settings = await loadSettings(env);
  await Promise.all(
    batch.messages.map(async (message) => {
      try {
        const crawl = crawlStub(env, message.body.crawlId);
        const task = crawl && (await crawl.claim(message.body.seq, message.body.attempt));
        if (!crawl || !task) return message.ack();
        let outcome: CrawlPageOutcome;
        const session = sessionStub(env, task.job.sessionId);
        if (!settings.ok) outcome = { ok: false, code: settings.error.code, message: settings.error.message };
        else if (!session) outcome = { ok: false, code: "SESSION_NOT_FOUND", message: "The crawl's session cannot be named." };
        else outcome = await session.crawlPage({ crawlId: task.job.crawlId, seq: task.seq, url: task.url, params: task.job.params }, settings.value);
        await crawl.settle(task.seq, outcome);
        message.ack();
      } catch {
        message.retry();
      }
    }),
  );
}
