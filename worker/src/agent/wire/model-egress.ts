import { configuredUrlPolicy, MAX_RELAY_WAIT_MS, operatorUrlPolicy } from "@edge-web/shared";
import type { Settings } from "../../config/resolve-settings.ts";
import type { Env } from "../../env.ts";
import { relayFetch } from "../../relay-fetch.ts";

/**
 * How requests reach a model provider: through the sidecar's relay, as every request leaving the
 * stack does, which vets the destination (names, IP forms, DNS answers) and pins the connection to
 * the vetted address — a worker can do neither. The operator's providers (AGENT_CONFIG) may be on
 * private networks, as the operator's search providers may; a provider configured through the API
 * is held to the network policy with no private-network exemption. The relay waits as long as the
 * turn does (settings.agent.modelTimeoutMs, up to the relay's five minutes), a second more so that
 * the turn's own timeout is the one that speaks.
 */
export function modelEgress(env: Pick<Env, "SIDECAR_URL" | "SIDECAR_TOKEN" | "SIDECAR" | "SIDECAR_CONTAINER" | "SIDECAR_INSTANCES">, settings: Settings, provider: string): typeof globalThis.fetch {
  const policy = settings.operatorUrls.models[provider] ? operatorUrlPolicy() : { ...configuredUrlPolicy(settings.config), allowPrivateNetwork: false };
  const waitMs = Math.min(settings.agent.modelTimeoutMs + 1_000, MAX_RELAY_WAIT_MS);
  return relayFetch(env, policy, { timeoutMs: waitMs, idleMs: waitMs });
}
