import { deadlineIn, fetchOptionsFrom } from "@edge-web/shared";
import { loadSettings } from "../config/load-settings.ts";
import type { Env } from "../env.ts";
import { createSidecarClient } from "../sidecar-client.ts";
import type { CrawlJob } from "./crawl-frontier.ts";

/**
 * The site's pages its sitemaps and llms.txt list (through the sidecar's map, under the settings of
 * now), to queue beside the start page; none when they cannot be read: the crawl goes on by links.
 */
export async function seedFromSitemaps(env: Env, job: CrawlJob): Promise<string[]> {
  const settings = await loadSettings(env);
  if (!settings.ok) return [];
  const { config } = settings.value;
  const answer = await createSidecarClient(env).map(
    { url: job.url, sources: "sitemap", limit: config.crawl.maxMapUrls, maxSitemaps: config.crawl.maxSitemaps, options: fetchOptionsFrom(config) },
    deadlineIn(config.timeoutMs),
  );
  return answer.ok ? answer.value.urls.map((entry) => entry.url) : [];
}
