import { fail, isPlainObject, KEYED_PROVIDERS, ok, type JsonObject, type Result } from "@edge-web/shared";
import type { ConfigDomain } from "./config-domains.ts";
import type { StoredConfig } from "./config-store.ts";
import { getPath, withoutPath } from "./json-paths.ts";
import { looksMasked } from "./mask-secret.ts";
import type { Settings } from "./resolve-settings.ts";

/** The domains one config write stores. */
export type DomainWrites = Partial<Record<ConfigDomain, JsonObject>>;

/** A key given in the write itself (not kept by sending its mask, not cleared). */
const freshKey = (value: unknown) => typeof value === "string" && value !== "" && !looksMasked(value);

/**
 * Keeps every stored key with the URL it was given for, in one write: `next` is what `domain` is
 * about to store, `before` and `after` the settings in effect without and with it.
 * - A model provider the operator defined (AGENT_CONFIG) keeps the operator's API and URL: a write
 *   that changes them is refused, so the operator's key cannot be sent elsewhere.
 * - A stored model provider whose baseURL changes loses its stored key unless the write gives a new one.
 * - A search provider whose baseUrl a settings write changes loses the key stored for it in auth.
 * (The environment's search keys follow only the operator's URLs: see resolveSettings.)
 */
export function bindSecrets(domain: ConfigDomain, patch: JsonObject, next: JsonObject, stored: StoredConfig, before: Settings, after: Settings): Result<DomainWrites> {
  if (domain === "auth") return bindModelKeys(patch, next, before);
  if (domain !== "settings") return ok({ [domain]: next });
  let auth = stored.domains.auth;
  for (const name of KEYED_PROVIDERS) {
    if (before.config[name].baseUrl !== after.config[name].baseUrl && typeof getPath(auth, `${name}.apiKey`) === "string") auth = withoutPath(auth!, `${name}.apiKey`);
  }
  return ok(auth === stored.domains.auth ? { settings: next } : { settings: next, auth: auth! });
}

function bindModelKeys(patch: JsonObject, next: JsonObject, before: Settings): Result<DomainWrites> {
  const written = patch.modelProviders;
  const merged = next.modelProviders;
  if (!isPlainObject(written) || !isPlainObject(merged)) return ok({ auth: next });
  const fixed: string[] = [];
  const providers: JsonObject = { ...merged };
  for (const [name, entry] of Object.entries(written)) {
    if (!isPlainObject(entry)) continue;
    const current = before.agent.modelProviders[name];
    if (before.operatorUrls.models[name] && current) {
      for (const field of ["api", "baseURL"] as const) if (entry[field] !== undefined && entry[field] !== current[field]) fixed.push(`modelProviders.${name}.${field}`);
      continue;
    }
    const stored = providers[name];
    if (current && isPlainObject(stored) && stored.baseURL !== current.baseURL && !freshKey(entry.apiKey) && stored.apiKey !== undefined) {
      providers[name] = withoutPath(stored, "apiKey");
    }
  }
  if (fixed.length > 0) {
    return fail(
      "SCHEMA_VALIDATION_FAILED",
      `${fixed.join(", ")}: the operator defines this provider in AGENT_CONFIG, so its API and URL are fixed there (its key goes only to that URL); change AGENT_CONFIG, or configure a provider of another name.`,
      fixed,
    );
  }
  return ok({ auth: { ...next, modelProviders: providers } });
}
