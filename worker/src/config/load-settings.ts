import { deepFreeze, fail, ok, type Result } from "@edge-web/shared";
import type { Env } from "../env.ts";
import type { ConfigLease, ConfigObject } from "./config-object.ts";
import type { StoredConfig } from "./config-store.ts";
import { resolveSettings, type Settings } from "./resolve-settings.ts";
import { setBounded } from "../set-bounded.ts";

/** The one ConfigObject. */
export const configStub = (env: Pick<Env, "CONFIG">) => {
  const config = env.CONFIG as DurableObjectNamespace<ConfigObject>;
  return config.get(config.idFromName("config"));
};

interface Lease {
  stored: StoredConfig;
  /** The stored domains as JSON: a new lease with the same body keeps what was resolved from it. */
  body: string;
  validUntil: number;
  /** The environment's values → the settings over these stored values, resolved once. */
  resolved: Map<string, Result<Settings>>;
}

/** Environments remembered per lease (tests and hosts may vary them per request). */
const MAX_SOURCES = 16;

let lease: Lease | undefined;

/** Forgets the cached stored config, e.g. after its storage was wiped outside the config API. */
export function dropConfigLease(): void {
  lease = undefined;
}

/** What the config API has stored, read without a lease (the config API's own reads and writes). */
export async function readStoredConfig(env: Pick<Env, "CONFIG">): Promise<Result<StoredConfig>> {
  try {
    return ok((await configStub(env).read()) as StoredConfig);
  } catch (error) {
    console.error("config store read failed", error instanceof Error ? error.message : String(error));
    return fail("INTERNAL_ERROR", "The stored configuration could not be read; try again.");
  }
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
    const resolved = lease?.body === body ? lease.resolved : new Map<string, Result<Settings>>();
    const held: Lease = { stored: deepFreeze(granted.stored) as StoredConfig, body, validUntil: asked + granted.leaseMs, resolved };
    lease = held;
    return ok(held);
  } catch (error) {
    console.error("config store read failed", error instanceof Error ? error.message : String(error));
    return fail("INTERNAL_ERROR", "The stored configuration could not be read; try again.");
  }
}

/** Each environment's key, worked out once: an isolate keeps its bindings object. */
const environmentKeys = new WeakMap<Env, string>();

/** What of the environment the settings depend on: the JSON layers and the provider-key variables. */
function environmentKey(env: Env): string {
  let key = environmentKeys.get(env);
  if (key === undefined) {
    const vars = env as unknown as Record<string, unknown>;
    const keys = Object.keys(vars).filter((name) => name.endsWith("_API_KEY")).sort().map((name) => `${name}=${String(vars[name])}`);
    key = [env.WEB_CONFIG ?? "", env.AGENT_CONFIG ?? "", ...keys].join("\u0000");
    environmentKeys.set(env, key);
  }
  return key;
}

/** What the next tool call or turn runs with: at most one RPC per lease, resolved once per change. */
export async function loadSettings(env: Env): Promise<Result<Settings>> {
  const held = await leasedStoredConfig(env);
  if (!held.ok) return held;
  const key = environmentKey(env);
  let resolved = held.value.resolved.get(key);
  if (!resolved) {
    resolved = resolveSettings(env, held.value.stored);
    setBounded(held.value.resolved, key, resolved, MAX_SOURCES);
  }
  return resolved;
}
