import { deadlineIn } from "@edge-web/shared";
import { loadSettings } from "../config/load-settings.ts";
import type { Env } from "../env.ts";
import { createSidecarClient } from "../sidecar-client.ts";

/**
 * The network policy's verdict on each origin's host (its name, address notation and DNS answers,
 * through the sidecar's /v1/vet under the settings of now), for a crawl to skip refused hosts' links
 * before queueing them. An origin the sidecar could not judge (unreachable, a DNS failure) gets no
 * verdict: its pages are vetted when they are fetched, as every page is.
 */
export async function vetHosts(env: Env, origins: readonly string[]): Promise<Map<string, boolean>> {
  const verdicts = new Map<string, boolean>();
  const settings = await loadSettings(env);
  if (!settings.ok) return verdicts;
  const { allowHosts, deniedDomains, allowedDomains, allowPrivateNetwork, timeoutMs } = settings.value.config;
  const sidecar = createSidecarClient(env);
  const deadline = deadlineIn(timeoutMs);
  await Promise.all(
    origins.map(async (origin) => {
      const vetted = await sidecar.vetUrl({ url: `${origin}/`, policy: { allowHosts, deniedDomains, allowedDomains }, allowPrivateNetwork }, deadline);
      if (vetted.ok) verdicts.set(origin, true);
      else if (vetted.error.code === "blocked" || vetted.error.code === "config") verdicts.set(origin, false);
    }),
  );
  return verdicts;
}
