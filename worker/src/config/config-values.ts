import { fail, ok, summarizeIssues, type Result } from "@edge-web/shared";
import * as v from "valibot";
import { CONFIG_DOMAINS, DOMAIN_SCHEMAS, type ConfigDomain } from "./config-domains.ts";
import type { Settings } from "./resolve-settings.ts";
import { formSchemaOf, objectEntries, secretPaths, type FormSchema } from "./form-schema.ts";
import { looksMasked, maskSecret } from "./mask-secret.ts";
import { isPlainObject, KEYED_PROVIDERS, mergePatch, type JsonObject } from "@edge-web/shared";
import { expandPath, getPath, unknownKeyPaths, withoutPath, withPath } from "./json-paths.ts";

/** Each domain's form schema, derived once from its valibot schema. */
export const FORM_SCHEMAS: Record<ConfigDomain, FormSchema> = {
  auth: formSchemaOf(DOMAIN_SCHEMAS.auth),
  settings: formSchemaOf(DOMAIN_SCHEMAS.settings),
  sandbox: formSchemaOf(DOMAIN_SCHEMAS.sandbox),
};

const SECRET_PATHS: Record<ConfigDomain, string[]> = {
  auth: secretPaths(FORM_SCHEMAS.auth),
  settings: secretPaths(FORM_SCHEMAS.settings),
  sandbox: secretPaths(FORM_SCHEMAS.sandbox),
};

/** The auth domain's values in effect, in clear: the search keys and the model providers. */
export function authValues(settings: Pick<Settings, "providerKeys" | "agent">): JsonObject {
  const keys = settings.providerKeys;
  const search = Object.fromEntries(KEYED_PROVIDERS.map((name) => [name, keys[name] === undefined ? {} : { apiKey: keys[name] }]));
  return { ...search, modelProviders: settings.agent.modelProviders as unknown as JsonObject };
}

/** A copy of `values` with every secret of `domain` masked. */
export function maskSecrets(domain: ConfigDomain, values: JsonObject): JsonObject {
  let out = values;
  for (const path of SECRET_PATHS[domain].flatMap((pattern) => expandPath(values, pattern))) {
    const secret = getPath(out, path);
    if (typeof secret === "string") out = withPath(out, path, maskSecret(secret));
  }
  return out;
}

/** What `GET /api/config/:domain` shows: the effective values (web and agent), secrets masked. */
export function domainValues(domain: ConfigDomain, settings: Settings): JsonObject {
  if (domain === "auth") return maskSecrets("auth", authValues(settings));
  // The settings domain nests a turn's limits under `agent`, as they are written.
  const { maxSteps, systemPrompt, modelTimeoutMs, maxToolResultChars, compaction, ...agent } = settings.agent;
  const effective = { ...settings.config, ...agent, agent: { maxSteps, systemPrompt, modelTimeoutMs, maxToolResultChars, compaction } } as unknown as JsonObject;
  // Unset keys show as null, which is also how a PUT unsets them.
  return Object.fromEntries(Object.keys(objectEntries(DOMAIN_SCHEMAS[domain]) ?? {}).map((key) => [key, effective[key] ?? null]));
}

/** Where an unknown key does belong, if it is a key of another domain. */
function homeOf(path: string, domain: ConfigDomain): ConfigDomain | undefined {
  const top = path.split(".")[0] ?? "";
  return CONFIG_DOMAINS.find((other) => other !== domain && Object.hasOwn(objectEntries(DOMAIN_SCHEMAS[other]) ?? {}, top));
}

/**
 * `PUT /api/config/:domain`: `patch` merged into what is stored (objects deeply, arrays replace, null
 * removes a stored key), then validated. Unknown keys are refused with their paths. For secrets, ""
 * clears the stored value and a value equal to the current mask keeps it (`current` holds the secrets
 * in effect, in clear); any other masked-looking value is refused. Answers the values to store.
 */
export function applyDomainUpdate(domain: ConfigDomain, stored: JsonObject | undefined, patch: JsonObject, current: JsonObject): Result<JsonObject> {
  const unknown = unknownKeyPaths(DOMAIN_SCHEMAS[domain], patch);
  if (unknown.length > 0) {
    const hints = unknown.flatMap((path) => {
      const home = homeOf(path, domain);
      return home ? [`${path} belongs to /api/config/${home}`] : [];
    });
    return fail(
      "SCHEMA_VALIDATION_FAILED",
      `Unknown ${domain} keys: ${unknown.join(", ")}${hints.length > 0 ? ` (${hints.join("; ")})` : ""}. Check the spelling against the formSchema of GET /api/config/${domain}.`,
      unknown,
    );
  }

  let next = patch;
  const staleMasks: string[] = [];
  for (const path of SECRET_PATHS[domain].flatMap((pattern) => expandPath(patch, pattern))) {
    const written = getPath(patch, path);
    if (typeof written !== "string") continue;
    if (written === "") {
      next = withPath(next, path, null);
    } else if (looksMasked(written)) {
      const secret = getPath(current, path);
      if (typeof secret === "string" && maskSecret(secret) === written) next = withoutPath(next, path);
      else staleMasks.push(path);
    }
  }
  if (staleMasks.length > 0) {
    return fail(
      "SCHEMA_VALIDATION_FAILED",
      `${staleMasks.join(", ")}: the value is masked but is not the mask of the current secret; send the full secret, its current mask to keep it, or "" to clear it.`,
      staleMasks,
    );
  }

  const merged = mergePatch(stored ?? {}, next);
  if (!isPlainObject(merged)) return fail("SCHEMA_VALIDATION_FAILED", `The ${domain} values must be an object.`, ["(root)"]);
  const parsed = v.safeParse(DOMAIN_SCHEMAS[domain], merged);
  if (!parsed.success) {
    const { text, fields } = summarizeIssues(parsed.issues);
    return fail("SCHEMA_VALIDATION_FAILED", `Invalid ${domain} values: ${text}.`, fields);
  }
  return ok(merged);
}
