import { deepFreeze, fail, KEYED_PROVIDERS, ok, resolveWebConfig, type Result, type SearchKeys, type WebConfig } from "@edge-web/shared";
import type { Env } from "../env.ts";
import type { ConfigLease } from "./config-object.ts";
import type { StoredConfig } from "./config-store.ts";
import { getPath } from "./json-paths.ts";

/** What tool calls run with: the effective web config (frozen: isolates share it) and the provider keys. */
export interface ToolSettings {
  config: WebConfig;
  /** From the worker's secrets, overridden by keys stored in the auth domain; never logged or echoed. */
  providerKeys: SearchKeys;
}

/** The one ConfigObject. */
export const configStub = (env: Pick<Env, "CONFIG">) => env.CONFIG.get(env.CONFIG.idFromName("config"));

interface Lease {
  stored: StoredConfig;
  /** The stored domains as JSON: a new lease with the same body keeps what was resolved from it. */
  body: string;
  validUntil: number;
  /** WEB_CONFIG source → the effective config over these stored values, validated once. */
  resolved: Map<string, Result<WebConfig>>;
}

/** WEB_CONFIG sources remembered per lease (tests and hosts may vary it per request). */
const MAX_SOURCES = 16;

let lease: Lease | undefined;

/** Forgets the cached stored config, e.g. after its storage was wiped outside the config API. */
export function dropConfigLease(): void {
  lease = undefined;
}

/**
 * The stored config, from this isolate's lease while it lasts, else one RPC to the ConfigObject.
 * Writes wait out every lease (ConfigObject.write), so a change applies to the next call everywhere.
 */
async function leasedStoredConfig(env: Pick<Env, "CONFIG">): Promise<Result<Lease>> {
  const asked = Date.now();
  if (lease && asked < lease.validUntil) return ok(lease);
  try {
    const granted = (await configStub(env).lease()) as ConfigLease;
    const body = JSON.stringify(granted.stored.domains);
    const resolved = lease?.body === body ? lease.resolved : new Map<string, Result<WebConfig>>();
    lease = { stored: deepFreeze(granted.stored), body, validUntil: asked + granted.leaseMs, resolved };
    return ok(lease);
  } catch (error) {
    console.error("config store read failed", error instanceof Error ? error.message : String(error));
    return fail("INTERNAL_ERROR", "The stored configuration could not be read; try again.");
  }
}

/** Defaults ← WEB_CONFIG ← stored settings ← stored sandbox, validated; the errors say which layer to fix. */
function resolveLayers(source: string, stored: StoredConfig): Result<WebConfig> {
  let base: unknown = {};
  if (source.trim() !== "") {
    try {
      base = JSON.parse(source);
    } catch {
      return fail("INTERNAL_ERROR", "WEB_CONFIG is not valid JSON; fix the worker's WEB_CONFIG variable.");
    }
  }
  const fromEnv = resolveWebConfig(base);
  if (!fromEnv.ok) {
    return fail("INTERNAL_ERROR", `WEB_CONFIG is invalid (${fromEnv.error.message}); fix the worker's WEB_CONFIG variable.`, fromEnv.error.fields);
  }
  const all = resolveWebConfig(base, stored.domains.settings ?? {}, stored.domains.sandbox ?? {});
  if (!all.ok) {
    return fail(
      "INTERNAL_ERROR",
      `The stored configuration is invalid (${all.error.message}); correct it with PUT /api/config/settings or /api/config/sandbox.`,
      all.error.fields,
    );
  }
  return ok(deepFreeze(all.value) as WebConfig);
}

function effectiveConfig(env: Pick<Env, "WEB_CONFIG">, held: Lease): Result<WebConfig> {
  const source = env.WEB_CONFIG ?? "";
  let config = held.resolved.get(source);
  if (!config) {
    config = resolveLayers(source, held.stored);
    if (held.resolved.size >= MAX_SOURCES) held.resolved.delete(held.resolved.keys().next().value!);
    held.resolved.set(source, config);
  }
  return config;
}

/** Provider keys: the worker's secrets (named by each provider's apiKeyEnv), overridden by stored auth keys. */
function providerKeys(env: Env, config: WebConfig, stored: StoredConfig): SearchKeys {
  const secrets = env as unknown as Record<string, unknown>;
  const keys: SearchKeys = {};
  for (const name of KEYED_PROVIDERS) {
    const storedKey = getPath(stored.domains.auth, `${name}.apiKey`);
    const value = typeof storedKey === "string" && storedKey.trim() !== "" ? storedKey : secrets[config[name].apiKeyEnv];
    if (typeof value === "string" && value.trim() !== "") keys[name] = value.trim();
  }
  return keys;
}

/** The settings over a given stored config (the config API resolves what it is about to store or show). */
export function settingsOver(env: Env, stored: StoredConfig): Result<ToolSettings> {
  const config = resolveLayers(env.WEB_CONFIG ?? "", stored);
  return config.ok ? ok({ config: config.value, providerKeys: providerKeys(env, config.value, stored) }) : config;
}

/** What the next tool call runs with: at most one RPC per lease, validated once per change. */
export async function loadToolSettings(env: Env): Promise<Result<ToolSettings>> {
  const held = await leasedStoredConfig(env);
  if (!held.ok) return held;
  const config = effectiveConfig(env, held.value);
  return config.ok ? ok({ config: config.value, providerKeys: providerKeys(env, config.value, held.value.stored) }) : config;
}
