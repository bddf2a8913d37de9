import type { Env } from "../env.ts";
import type { CrawlObject } from "./crawl-object.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The crawl's Durable Object, or undefined when the id cannot name a crawl. */
export function crawlStub(env: Pick<Env, "CRAWLS">, crawlId: string) {
  if (!UUID.test(crawlId)) return undefined;
  const crawls = env.CRAWLS as DurableObjectNamespace<CrawlObject>;
  return crawls.get(crawls.idFromName(crawlId.toLowerCase()));
}
