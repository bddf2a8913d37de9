import { ConfigDomainResponseSchema, ConfigPutRequestSchema, fail, ModelCatalogSchema, ok, OkResponseSchema, type Failure, type JsonObject, type Result } from "@edge-web/shared";
import { Hono, type Context } from "hono";
import type { AppEnv } from "../app-env.ts";
import { CONFIG_DOMAINS, isConfigDomain, type ConfigDomain } from "../config/config-domains.ts";
import type { StoredConfig } from "../config/config-store.ts";
import { applyDomainUpdate, authValues, domainValues, FORM_SCHEMAS } from "../config/config-values.ts";
import { bindSecrets } from "../config/bind-secrets.ts";
import { configStub, readStoredConfig } from "../config/load-settings.ts";
import { resolveSettings, type Settings } from "../config/resolve-settings.ts";
import { readSecretWrites } from "../config/secret-writes.ts";
import { vetConfiguredUrls } from "../config/vet-configured-urls.ts";
import { createSidecarClient } from "../sidecar-client.ts";
import { currentCatalog } from "../agent/model/model-catalog.ts";
import type { Env } from "../env.ts";
import { jsonError, jsonOk } from "../http/respond.ts";
import { readJsonBody } from "../http/read-json-body.ts";
import { validate } from "../http/validate.ts";
import { BODY_ERRORS, type ApiRoute } from "./api-route.ts";

/** A write lost to a concurrent one is retried this many times before giving up. */
const WRITE_ATTEMPTS = 5;

const unknownDomain = (c: Context<AppEnv>, name: string) =>
  jsonError(c, fail("DOMAIN_NOT_FOUND", `Unknown config domain "${name}"; use auth, settings or sandbox.`).error);

const configured = (value: string | undefined) => (value?.trim() ?? "") !== "";

/**
 * Configuration is an admin act. Open (no tokens at all, loopback only) anyone may; with tokens
 * configured only the admin principal may, and with API_TOKENS but no ADMIN_TOKEN nobody may
 * through the API. Reading the model list is open to every caller (ids and names only).
 */
function refusesConfig(c: Context<AppEnv>): Failure | undefined {
  const { API_TOKENS, ADMIN_TOKEN } = c.env;
  if (!configured(API_TOKENS) && !configured(ADMIN_TOKEN)) return undefined;
  if (c.get("principal").kind === "admin") return undefined;
  return configured(ADMIN_TOKEN)
    ? fail("FORBIDDEN", "Reading or changing the configuration needs the admin token: send ADMIN_TOKEN as the bearer token.")
    : fail("FORBIDDEN", "The configuration can be read and changed only by the admin: set ADMIN_TOKEN on the worker and send it as the bearer token.");
}

/** The secrets now in effect, in clear, for masked write-back (only the auth domain has secrets). */
function currentSecrets(domain: ConfigDomain, stored: StoredConfig, settings: Result<Settings>): JsonObject {
  if (domain !== "auth") return {};
  // Without a valid effective config, only the stored keys are known.
  return settings.ok ? authValues(settings.value) : (stored.domains.auth ?? {});
}

/**
 * Merges `patch` into the stored domain under compare-and-set, so concurrent writes are never lost;
 * keys stay bound to their URLs (bindSecrets) and new provider URLs are vetted (vetConfiguredUrls).
 */
async function writeDomain(env: Env, domain: ConfigDomain, patch: JsonObject): Promise<Result<true>> {
  for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
    const stored = await readStoredConfig(env);
    if (!stored.ok) return stored;
    const before = resolveSettings(env, stored.value);
    const next = applyDomainUpdate(domain, stored.value.domains[domain], patch, currentSecrets(domain, stored.value, before));
    if (!next.ok) return next;
    const after = resolveSettings(env, { ...stored.value, domains: { ...stored.value.domains, [domain]: next.value } });
    if (!after.ok) return fail("SCHEMA_VALIDATION_FAILED", after.error.message, after.error.fields);
    // A stored config that no longer resolves is being repaired: nothing moved, and every URL it holds is vetted as new.
    const writes = bindSecrets(domain, patch, next.value, stored.value, before.ok ? before.value : after.value, after.value);
    if (!writes.ok) return writes;
    const vetted = await vetConfiguredUrls(before.ok ? before.value : undefined, after.value, createSidecarClient(env));
    if (!vetted.ok) return vetted;
    if (await configStub(env).write(writes.value, stored.value.revision)) return ok(true);
  }
  return fail("INTERNAL_ERROR", "The configuration kept changing while it was being written; try again.");
}

/** GET /api/config/models: the catalog; a caller who may not read the configuration sees ids and names only. */
async function modelList(c: Context<AppEnv>) {
  const catalog = await currentCatalog(c.env);
  if (!catalog.ok) return jsonError(c, catalog.error);
  if (!refusesConfig(c)) return jsonOk(c, catalog.value);
  const { providers, models } = catalog.value;
  return jsonOk(c, { providers, models: models.map(({ id, provider, name }) => ({ id, provider, name })) });
}

const ADMIN_ONLY = "Needs ADMIN_TOKEN whenever tokens are configured (with API_TOKENS but no ADMIN_TOKEN it is refused).";

const MODELS_ROUTE = {
  method: "get",
  path: "/api/config/models",
  tag: "config",
  summary: "The configured model providers and their models",
  description: "Open to every token holder; callers other than the admin get each model's id, provider and name only.",
  ok: { status: 200, description: "The catalog.", schema: ModelCatalogSchema },
  errors: [],
} as const satisfies ApiRoute;

const GET_DOMAIN = {
  method: "get",
  path: "/api/config/:domain",
  tag: "config",
  summary: "A config domain (auth, settings, sandbox): its form and values",
  pathValues: { domain: CONFIG_DOMAINS },
  auth: "admin",
  description: ADMIN_ONLY,
  ok: { status: 200, description: "Secrets are masked.", schema: ConfigDomainResponseSchema },
  errors: ["DOMAIN_NOT_FOUND"],
} as const satisfies ApiRoute;

const PUT_DOMAIN = {
  method: "put",
  path: "/api/config/:domain",
  tag: "config",
  summary: "Change a config domain",
  pathValues: { domain: CONFIG_DOMAINS },
  auth: "admin",
  description: `${ADMIN_ONLY} Takes effect for the next call everywhere.`,
  body: { schema: ConfigPutRequestSchema },
  ok: { status: 200, description: "Stored.", schema: OkResponseSchema },
  errors: ["DOMAIN_NOT_FOUND", "SCHEMA_VALIDATION_FAILED", ...BODY_ERRORS],
} as const satisfies ApiRoute;

/** GET /api/config/models is answered by GET_DOMAIN's handler (see below) but described as a route of its own. */
export const CONFIG_ROUTES: ApiRoute[] = [MODELS_ROUTE, GET_DOMAIN, PUT_DOMAIN];

/**
 * The configuration API: `GET /api/config/models`, `GET /api/config/:domain` and `PUT /api/config/:domain`
 * (domains auth, settings, sandbox). Paths are absolute: mount with `app.route("/", configRoutes)`.
 */
export const configRoutes = new Hono<AppEnv>()
  // The model list shares the domains' path: a static /api/config/models beside /api/config/:domain would
  // push hono from its compiled RegExpRouter to the much slower TrieRouter for every request.
  .on(GET_DOMAIN.method, GET_DOMAIN.path, async (c) => {
    const domain = c.req.param("domain");
    if (domain === "models") return modelList(c);
    if (!isConfigDomain(domain)) return unknownDomain(c, domain);
    const refused = refusesConfig(c);
    if (refused) return jsonError(c, refused.error);
    const stored = await readStoredConfig(c.env);
    const settings = stored.ok ? resolveSettings(c.env, stored.value) : stored;
    if (!settings.ok) return jsonError(c, settings.error);
    return jsonOk(c, { formSchema: FORM_SCHEMAS[domain], values: domainValues(domain, settings.value) });
  })
  .on(PUT_DOMAIN.method, PUT_DOMAIN.path, async (c) => {
    const domain = c.req.param("domain");
    if (!isConfigDomain(domain)) return unknownDomain(c, domain);
    const refused = refusesConfig(c);
    if (refused) return jsonError(c, refused.error);
    const body = await readJsonBody(c, "INVALID_JSON");
    if (!body.ok) return jsonError(c, body.error);
    const parsed = validate(PUT_DOMAIN.body.schema, body.value, "VALIDATION_FAILED");
    if (!parsed.ok) return jsonError(c, parsed.error);
    const patch = readSecretWrites(domain, parsed.value.values);
    if (!patch.ok) return jsonError(c, patch.error);
    const written = await writeDomain(c.env, domain, patch.value);
    return written.ok ? jsonOk(c, { ok: true }) : jsonError(c, written.error);
  });
