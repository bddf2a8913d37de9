import {
  AgentConfigSchema,
  deepFreeze,
  fail,
  isPlainObject,
  KEYED_PROVIDERS,
  ok,
  PROVIDER_NAMES,
  resolveConfig,
  WebConfigSchema,
  type AgentConfig,
  type JsonObject,
  type OperatorUrls,
  type Result,
  type SearchKeys,
  type WebConfig,
} from "@edge-web/shared";
import type * as v from "valibot";
import type { Env } from "../env.ts";
import type { StoredConfig } from "./config-store.ts";
import { getPath } from "./json-paths.ts";
import { setBounded } from "../set-bounded.ts";

/**
 * The agent's settings, flat: the settings domain nests a turn's limits under `agent`
 * (`agent.maxSteps`, …), resolved here into the same object as the defaults and the providers.
 */
export type AgentSettings = Omit<AgentConfig, "agent"> & AgentConfig["agent"];

/** What tool calls and turns run with. Frozen: isolates share them. */
export interface Settings {
  /** This resolution's identity: a session object holding these settings is sent the id alone. */
  id: string;
  config: WebConfig;
  /** The agent's defaults, turn limits, approval setting and model providers (their keys included: never logged or echoed). */
  agent: AgentSettings;
  /** Search keys from the worker's secrets or the auth domain, each only where it may go; never logged or echoed. */
  providerKeys: SearchKeys;
  /**
   * Whose base URLs these are. The operator's (built-in defaults, WEB_CONFIG, AGENT_CONFIG) may be on a
   * private network; one written through the config API is reached only as the network policy allows.
   */
  operatorUrls: { search: OperatorUrls; models: Readonly<Record<string, boolean>> };
}

/** The environment's layers, parsed and validated once per isolate and value. */
interface EnvLayers {
  web: JsonObject;
  agent: JsonObject;
  /** What the operator alone configured: the reference for whose URL is whose. */
  webOnly: WebConfig;
  agentOnly: AgentConfig;
}

/** Distinct environments remembered (tests and hosts may vary them per request). */
const MAX_ENVIRONMENTS = 16;
const environments = new Map<string, Result<EnvLayers>>();

function parseJsonVar(name: "WEB_CONFIG" | "AGENT_CONFIG", source: string | undefined): Result<JsonObject> {
  if (!source || source.trim() === "") return ok({});
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch {
    return fail("INTERNAL_ERROR", `${name} is not valid JSON; fix the worker's ${name} variable.`);
  }
  return isPlainObject(value) ? ok(value) : fail("INTERNAL_ERROR", `${name} must be a JSON object; fix the worker's ${name} variable.`);
}

function parseEnvLayers(env: Pick<Env, "WEB_CONFIG" | "AGENT_CONFIG">): Result<EnvLayers> {
  const web = parseJsonVar("WEB_CONFIG", env.WEB_CONFIG);
  if (!web.ok) return web;
  const agent = parseJsonVar("AGENT_CONFIG", env.AGENT_CONFIG);
  if (!agent.ok) return agent;
  const webOnly = resolveConfig(WebConfigSchema, web.value);
  if (!webOnly.ok) return fail("INTERNAL_ERROR", `WEB_CONFIG is invalid (${webOnly.error.message}); fix the worker's WEB_CONFIG variable.`, webOnly.error.fields);
  const agentOnly = resolveConfig(AgentConfigSchema, agent.value);
  if (!agentOnly.ok) return fail("INTERNAL_ERROR", `AGENT_CONFIG is invalid (${agentOnly.error.message}); fix the worker's AGENT_CONFIG variable.`, agentOnly.error.fields);
  return ok(deepFreeze({ web: web.value, agent: agent.value, webOnly: webOnly.value, agentOnly: agentOnly.value }) as EnvLayers);
}

function envLayers(env: Pick<Env, "WEB_CONFIG" | "AGENT_CONFIG">): Result<EnvLayers> {
  const source = `${env.WEB_CONFIG ?? ""}\u0000${env.AGENT_CONFIG ?? ""}`;
  let layers = environments.get(source);
  if (!layers) {
    layers = parseEnvLayers(env);
    setBounded(environments, source, layers, MAX_ENVIRONMENTS);
  }
  return layers;
}

/** The keys of `value` that `schema` (an object schema) has: each schema is given only its own keys. */
function own(schema: v.ObjectSchema<v.ObjectEntries, undefined>, value: JsonObject | undefined): JsonObject {
  return Object.fromEntries(Object.entries(value ?? {}).filter(([key]) => Object.hasOwn(schema.entries, key)));
}

/**
 * Stored model providers over the environment's: a provider the operator defined keeps the
 * operator's API and URL (a stored value cannot point the operator's key elsewhere); its stored key
 * and model list still apply.
 */
function storedModelProviders(stored: unknown, operator: AgentConfig["modelProviders"]): JsonObject {
  if (!isPlainObject(stored)) return {};
  return Object.fromEntries(
    Object.entries(stored).map(([name, entry]) => {
      const fixed = operator[name];
      return [name, fixed && isPlainObject(entry) ? { ...entry, api: fixed.api, baseURL: fixed.baseURL } : entry];
    }),
  );
}

/**
 * Search keys: a key stored through /api/config/auth, else the worker secret named by the provider's
 * apiKeyEnv — the secret only while the provider's URL is the operator's, since it was set for that URL.
 * (A stored key is dropped when a later write changes its provider's URL: see bindSecrets.)
 */
function searchKeys(env: Env, config: WebConfig, stored: StoredConfig, operatorUrls: OperatorUrls): SearchKeys {
  const secrets = env as unknown as Record<string, unknown>;
  const keys: SearchKeys = {};
  for (const name of KEYED_PROVIDERS) {
    const storedKey = getPath(stored.domains.auth, `${name}.apiKey`);
    const value = typeof storedKey === "string" && storedKey.trim() !== "" ? storedKey : operatorUrls[name] ? secrets[config[name].apiKeyEnv] : undefined;
    if (typeof value === "string" && value.trim() !== "") keys[name] = value.trim();
  }
  return keys;
}

/**
 * The settings in effect over a stored config. Web: defaults ← WEB_CONFIG ← stored settings ← stored
 * sandbox. Agent: defaults ← AGENT_CONFIG ← stored settings, sandbox and auth (modelProviders).
 * Validated; a failure says which layer to fix.
 */
export function resolveSettings(env: Env, stored: StoredConfig): Result<Settings> {
  const layers = envLayers(env);
  if (!layers.ok) return layers;
  const { web, agent, webOnly, agentOnly } = layers.value;
  const { settings, sandbox, auth } = stored.domains;
  const config = resolveConfig(WebConfigSchema, web, own(WebConfigSchema, settings), own(WebConfigSchema, sandbox));
  const agentConfig = resolveConfig(AgentConfigSchema, agent, own(AgentConfigSchema, settings), own(AgentConfigSchema, sandbox), {
    modelProviders: storedModelProviders(auth?.modelProviders, agentOnly.modelProviders),
  });
  if (!config.ok || !agentConfig.ok) {
    const { message, fields } = config.ok ? (agentConfig as Exclude<typeof agentConfig, { ok: true }>).error : config.error;
    return fail("INTERNAL_ERROR", `The stored configuration is invalid (${message}); correct it with PUT /api/config/settings, /sandbox or /auth.`, fields);
  }
  const search = Object.fromEntries(
    PROVIDER_NAMES.map((name) => [name, config.value[name].baseUrl === webOnly[name].baseUrl]),
  ) as OperatorUrls;
  const models = Object.fromEntries(Object.keys(agentConfig.value.modelProviders).map((name) => [name, Object.hasOwn(agentOnly.modelProviders, name)]));
  const { agent: turnLimits, ...agentRest } = agentConfig.value;
  return ok(
    deepFreeze({
      id: crypto.randomUUID(),
      config: config.value,
      agent: { ...agentRest, ...turnLimits },
      providerKeys: searchKeys(env, config.value, stored, search),
      operatorUrls: { search, models },
    }) as Settings,
  );
}
