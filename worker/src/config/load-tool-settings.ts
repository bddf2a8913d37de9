import type { Result, WebConfig } from "@edge-web/shared";
import type { Env } from "../env.ts";
import { loadConfigView } from "./config-view.ts";
import type { ProviderKeys } from "./provider-keys.ts";

export interface ToolSettings {
  config: WebConfig;
  providerKeys: ProviderKeys;
}

/**
 * What a tool call runs with, resolved afresh for every call so a change applies to the next one:
 * defaults ← WEB_CONFIG ← stored settings ← stored sandbox; provider keys from the worker's secrets,
 * overridden by stored auth keys. One RPC to the ConfigObject per call.
 */
export async function loadToolSettings(env: Env): Promise<Result<ToolSettings>> {
  const view = await loadConfigView(env);
  if (!view.ok) return view;
  return { ok: true, value: { config: view.value.config, providerKeys: view.value.providerKeys } };
}
