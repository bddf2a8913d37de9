import type { Env } from "../env.ts";
import { loadSettings } from "../config/load-settings.ts";
import type { CrawlPageOutcome } from "../tools/crawl-page.ts";
import type { CrawlMessage } from "./crawl-message.ts";
import { crawlSession } from "./crawl-session.ts";
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
        const outcome: CrawlPageOutcome = settings.ok
          ? await crawlSession(env, task.job.sessionId).crawlPage({ crawlId: task.job.crawlId, seq: task.seq, url: task.url, params: task.job.params }, settings.value)
          : { ok: false, code: settings.error.code, message: settings.error.message };
        await crawl.settle(task.seq, outcome);
        message.ack();
      } catch {
        message.retry();
      }
    }),
  );
}
