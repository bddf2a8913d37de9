import type { Env } from "../env.ts";
import type { CrawlJob } from "./crawl-frontier.ts";
import type { CrawlQuotaObject, QuotaAnswer } from "./crawl-quota-object.ts";

/** The running-crawl counts of each owner, kept by its CrawlQuotaObject. */
export function crawlQuota(env: Pick<Env, "CRAWL_QUOTAS">) {
  const quotas = env.CRAWL_QUOTAS as DurableObjectNamespace<CrawlQuotaObject>;
  const of = (owner: string) => quotas.get(quotas.idFromName(owner));
  return {
    acquire: (job: CrawlJob, max: number): Promise<QuotaAnswer> => of(job.owner).acquire(job.crawlId, job.sessionId, job.bounds.endsAt + job.bounds.leaseMs, max),
    release: (job: CrawlJob): Promise<void> => of(job.owner).release(job.crawlId),
  };
}
