import { deadlineIn, fail, fetchOptionsFrom, type MapAnswer, type MapParams, type Result, type WebConfig } from "@edge-web/shared";
import type { Env } from "../env.ts";
import { createSidecarClient } from "../sidecar-client.ts";

/** The URLs a map answers when it does not say (at most web.crawl.maxMapUrls). */
export const DEFAULT_MAP_LIMIT = 1_000;

/** A site's map for a session's caller: its limit within web.crawl.maxMapUrls, read by the sidecar under the settings' policy and deadline. */
export async function mapForSession(env: Env, sessionId: string, params: MapParams, config: WebConfig): Promise<Result<MapAnswer>> {
  const { url, sources = "all", search, limit = Math.min(DEFAULT_MAP_LIMIT, config.crawl.maxMapUrls) } = params;
  if (limit > config.crawl.maxMapUrls) return fail("INVALID_INPUT", `limit: at most ${config.crawl.maxMapUrls} URLs (web.crawl.maxMapUrls).`, ["limit"]);
  const request = { url, sources, limit, maxSitemaps: config.crawl.maxSitemaps, options: fetchOptionsFrom(config), ...(search && { search }) };
  return createSidecarClient(env, sessionId).map(request, deadlineIn(config.timeoutMs));
}
