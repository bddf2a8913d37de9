/** A Cloudflare Queue message of the crawl queue: one page of one crawl to fetch, by its sequence number there and its hand-out. */
export interface CrawlMessage {
  crawlId: string;
  seq: number;
  attempt: number;
}
