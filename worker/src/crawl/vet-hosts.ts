import { deadlineIn, type Deadline, type Result, type WebConfig } from "@edge-web/shared";
import { loadSettings } from "../config/load-settings.ts";
import type { Env } from "../env.ts";
import { createSidecarClient } from "../sidecar-client.ts";

/** Whether a page's URL may be fetched under `config`'s network policy (the sidecar's /v1/vet: name, address notation, DNS answers). */
export function vetPageUrl(env: Env, url: string, config: WebConfig, deadline: Deadline): Promise<Result<{ address: string }, string>> {
  const { allowHosts, deniedDomains, allowedDomains, allowPrivateNetwork } = config;
  return createSidecarClient(env).vetUrl({ url, policy: { allowHosts, deniedDomains, allowedDomains }, allowPrivateNetwork }, deadline);
}

/**
 * The network policy's verdict on each origin's host, under the settings of now, for a crawl to skip
 * refused hosts' links before queueing them. An origin the sidecar could not judge (unreachable, a
 * DNS failure) gets no verdict: its pages are vetted when they are fetched, as every page is.
 */
export async function vetHosts(env: Env, origins: readonly string[]): Promise<Map<string, boolean>> {
  const verdicts = new Map<string, boolean>();
  const settings = await loadSettings(env);
  if (!settings.ok) return verdicts;
  const { config } = settings.value;
  const deadline = deadlineIn(config.timeoutMs);
  await Promise.all(
    origins.map(async (origin) => {
      const vetted = await vetPageUrl(env, `${origin}/`, config, deadline);
      if (vetted.ok) verdicts.set(origin, true);
      else if (vetted.error.code === "blocked" || vetted.error.code === "config") verdicts.set(origin, false);
    }),
  );
  return verdicts;
}
