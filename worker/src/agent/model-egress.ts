import { configuredUrlPolicy } from "@edge-web/shared";
import type { Settings } from "../config/resolve-settings.ts";
import type { Env } from "../env.ts";
import { relayFetch } from "../relay-fetch.ts";

/**
 * How requests reach a model provider. The operator's providers (AGENT_CONFIG) are called straight
 * from the worker: their URLs are the operator's, private ones included. A provider configured
 * through the API goes through the sidecar's relay, which vets the destination (names, IP forms, DNS
 * answers) under the network policy and pins the connection, as every fetch is — a worker cannot.
 */
export function modelEgress(env: Pick<Env, "SIDECAR_URL" | "SIDECAR_TOKEN" | "SIDECAR">, settings: Settings, provider: string): typeof globalThis.fetch {
  if (settings.operatorUrls.models[provider]) return fetch;
  return relayFetch(env, { ...configuredUrlPolicy(settings.config), allowPrivateNetwork: false });
}
