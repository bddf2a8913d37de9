import {
  AgentConfigSchema,
  deepFreeze,
  fail,
  KEYED_PROVIDERS,
  ok,
  resolveConfig,
  resolveWebConfig,
  type AgentConfig,
  type Failure,
  type Result,
  type SearchKeys,
  type WebConfig,
} from "@edge-web/shared";
import type { Env } from "../env.ts";
import type { ConfigLease } from "./config-object.ts";
import type { StoredConfig } from "./config-store.ts";
import { getPath } from "./json-paths.ts";

/** What tool calls and turns run with. Frozen: isolates share them. */
export interface ToolSettings {
  config: WebConfig;
  /** The agent's defaults, approval setting and model providers (their keys included: never logged or echoed). */
  agent: AgentConfig;
  /** From the worker's secrets, overridden by keys stored in the auth domain; never logged or echoed. */
  providerKeys: SearchKeys;
}

type Resolved = Pick<ToolSettings, "config" | "agent">;

/** The one ConfigObject. */
export const configStub = (env: Pick<Env, "CONFIG">) => env.CONFIG.get(env.CONFIG.idFromName("config"));

interface Lease {
  stored: StoredConfig;
  /** The stored domains as JSON: a new lease with the same body keeps what was resolved from it. */
  body: string;
  validUntil: number;
  /** Environment layers → the effective settings over these stored values, validated once. */
  resolved: Map<string, Result<Resolved>>;
}

/** Environment layers remembered per lease (tests and hosts may vary them per request). */
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
    const resolved = lease?.body === body ? lease.resolved : new Map<string, Result<Resolved>>();
    const held: Lease = { stored: deepFreeze(granted.stored) as StoredConfig, body, validUntil: asked + granted.leaseMs, resolved };
    lease = held;
    return ok(held);
  } catch (error) {
    console.error("config store read failed", error instanceof Error ? error.message : String(error));
    return fail("INTERNAL_ERROR", "The stored configuration could not be read; try again.");
  }
}

/** A JSON object from the environment, or what is wrong with it. */
function envLayer(name: "WEB_CONFIG" | "AGENT_CONFIG", source: string | undefined): Result<unknown> {
  if (!source || source.trim() === "") return ok({});
  try {
    return ok(JSON.parse(source));
  } catch {
    return fail("INTERNAL_ERROR", `${name} is not valid JSON; fix the worker's ${name} variable.`);
  }
}

/**
 * Web config: defaults ← WEB_CONFIG ← stored settings ← stored sandbox. Agent config: defaults ←
 * AGENT_CONFIG ← stored settings, sandbox and auth (`modelProviders`). Validated; the errors say which
 * layer to fix.
 */
function resolveLayers(env: Pick<Env, "WEB_CONFIG" | "AGENT_CONFIG">, stored: StoredConfig): Result<Resolved> {
  const web = envLayer("WEB_CONFIG", env.WEB_CONFIG);
  if (!web.ok) return web;
  const fromEnv = resolveWebConfig(web.value);
  if (!fromEnv.ok) {
    return fail("INTERNAL_ERROR", `WEB_CONFIG is invalid (${fromEnv.error.message}); fix the worker's WEB_CONFIG variable.`, fromEnv.error.fields);
  }
  const { settings = {}, sandbox = {}, auth = {} } = stored.domains;
  const config = resolveWebConfig(web.value, settings, sandbox);
  const agentEnv = envLayer("AGENT_CONFIG", env.AGENT_CONFIG);
  if (!agentEnv.ok) return agentEnv;
  const agentOnly = resolveConfig(AgentConfigSchema, agentEnv.value);
  if (!agentOnly.ok) {
    return fail("INTERNAL_ERROR", `AGENT_CONFIG is invalid (${agentOnly.error.message}); fix the worker's AGENT_CONFIG variable.`, agentOnly.error.fields);
  }
  const agent = resolveConfig(AgentConfigSchema, agentEnv.value, settings, sandbox, { modelProviders: auth.modelProviders ?? {} });
  if (!config.ok || !agent.ok) {
    const { message, fields } = config.ok ? (agent as Failure).error : config.error;
    return fail("INTERNAL_ERROR", `The stored configuration is invalid (${message}); correct it with PUT /api/config/settings, /sandbox or /auth.`, fields);
  }
  return ok(deepFreeze({ config: config.value, agent: agent.value }) as Resolved);
}

function effectiveSettings(env: Env, held: Lease): Result<Resolved> {
  const source = `${env.WEB_CONFIG ?? ""}\u0000${env.AGENT_CONFIG ?? ""}`;
  let resolved = held.resolved.get(source);
  if (!resolved) {
    resolved = resolveLayers(env, held.stored);
    if (held.resolved.size >= MAX_SOURCES) held.resolved.delete(held.resolved.keys().next().value!);
    held.resolved.set(source, resolved);
  }
  return resolved;
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

const withKeys = (env: Env, resolved: Resolved, stored: StoredConfig): ToolSettings => ({ ...resolved, providerKeys: providerKeys(env, resolved.config, stored) });

/** The settings over a given stored config (the config API resolves what it is about to store or show). */
export function settingsOver(env: Env, stored: StoredConfig): Result<ToolSettings> {
  const resolved = resolveLayers(env, stored);
  return resolved.ok ? ok(withKeys(env, resolved.value, stored)) : resolved;
}

/** What the next tool call or turn runs with: at most one RPC per lease, validated once per change. */
export async function loadToolSettings(env: Env): Promise<Result<ToolSettings>> {
  const held = await leasedStoredConfig(env);
  if (!held.ok) return held;
  const resolved = effectiveSettings(env, held.value);
  return resolved.ok ? ok(withKeys(env, resolved.value, held.value.stored)) : resolved;
}
