import { ok, type Result, type WebConfig } from "@edge-web/shared";
import type { Env } from "../env.ts";
import type { StoredConfig } from "./config-store.ts";
import { readStoredConfig } from "./config-stub.ts";
import { effectiveProviderKeys, effectiveWebConfig } from "./config-values.ts";
import { loadWebConfig } from "./load-web-config.ts";
import { providerKeys, type ProviderKeys } from "./provider-keys.ts";

/** Every layer resolved: what the config API stored, and what tool calls run with. */
export interface ConfigView {
  stored: StoredConfig;
  config: WebConfig;
  providerKeys: ProviderKeys;
}

/** The effective config from the layers, lowest first: defaults ← WEB_CONFIG (`base`) ← stored settings ← stored sandbox. */
export function resolveConfigView(env: Env, base: WebConfig, stored: StoredConfig): Result<ConfigView> {
  const config = effectiveWebConfig(base, stored);
  if (!config.ok) return config;
  return ok({ stored, config: config.value, providerKeys: effectiveProviderKeys(providerKeys(env, config.value), stored) });
}

/** Reads the stored config (one RPC to the ConfigObject) and resolves it over the environment's. */
export async function loadConfigView(env: Env): Promise<Result<ConfigView>> {
  const base = loadWebConfig(env);
  if (!base.ok) return base;
  const stored = await readStoredConfig(env);
  if (!stored.ok) return stored;
  return resolveConfigView(env, base.value, stored.value);
}
