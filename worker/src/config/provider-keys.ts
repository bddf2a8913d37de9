import { KEYED_PROVIDERS, type SearchKeys, type WebConfig } from "@edge-web/shared";
import type { Env } from "../env.ts";

export type ProviderKeys = SearchKeys;

/** Provider keys from the worker's secrets, named by each provider's web.<name>.apiKeyEnv. */
export function providerKeys(env: Env, config: WebConfig): ProviderKeys {
  const secrets = env as unknown as Record<string, unknown>;
  const keys: ProviderKeys = {};
  for (const name of KEYED_PROVIDERS) {
    const value = secrets[config[name].apiKeyEnv];
    if (typeof value === "string" && value.trim() !== "") keys[name] = value.trim();
  }
  return keys;
}
