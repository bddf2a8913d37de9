import { ConfigPutRequestSchema, fail, ok, type JsonObject, type Result } from "@edge-web/shared";
import { Hono, type Context } from "hono";
import type { AppEnv } from "../app-env.ts";
import { isConfigDomain, type ConfigDomain } from "../config/config-domains.ts";
import type { StoredConfig } from "../config/config-store.ts";
import { applyDomainUpdate, authValues, domainValues, FORM_SCHEMAS } from "../config/config-values.ts";
import { configStub, loadToolSettings, settingsOver } from "../config/effective-config.ts";
import { currentCatalog } from "../agent/model-catalog.ts";
import type { Env } from "../env.ts";
import { jsonError, jsonOk } from "../http/respond.ts";
import { readJsonBody } from "../http/read-json-body.ts";
import { validate } from "../http/validate.ts";

/** A write lost to a concurrent one is retried this many times before giving up. */
const WRITE_ATTEMPTS = 5;

const unknownDomain = (c: Context<AppEnv>, name: string) =>
  jsonError(c, fail("DOMAIN_NOT_FOUND", `Unknown config domain "${name}"; use auth, settings or sandbox.`).error);

/** With ADMIN_TOKEN set only the admin may write; without it, any authenticated principal. */
function mayWrite(c: Context<AppEnv>): boolean {
  const adminConfigured = (c.env.ADMIN_TOKEN?.trim() ?? "") !== "";
  return !adminConfigured || c.get("principal").kind === "admin";
}

/** The secrets now in effect, in clear, for masked write-back (only the auth domain has secrets). */
function currentSecrets(env: Env, domain: ConfigDomain, stored: StoredConfig): JsonObject {
  if (domain !== "auth") return {};
  const settings = settingsOver(env, stored);
  // Without a valid effective config, only the stored keys are known.
  return settings.ok ? authValues(settings.value) : (stored.domains.auth ?? {});
}

/** What the config API has stored, read without a lease: these reads are not cached. */
async function readStored(env: Env): Promise<Result<StoredConfig>> {
  try {
    return ok((await configStub(env).read()) as StoredConfig);
  } catch (error) {
    console.error("config store read failed", error instanceof Error ? error.message : String(error));
    return fail("INTERNAL_ERROR", "The stored configuration could not be read; try again.");
  }
}

/** Merges `patch` into the stored domain under compare-and-set, so concurrent writes are never lost. */
async function writeDomain(env: Env, domain: ConfigDomain, patch: JsonObject): Promise<Result<true>> {
  for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
    const stored = await readStored(env);
    if (!stored.ok) return stored;
    const next = applyDomainUpdate(domain, stored.value.domains[domain], patch, currentSecrets(env, domain, stored.value));
    if (!next.ok) return next;
    if (await configStub(env).write(domain, next.value, stored.value.revision)) return ok(true);
  }
  return fail("INTERNAL_ERROR", "The configuration kept changing while it was being written; try again.");
}

/**
 * The configuration API: `GET /api/config/models`, `GET /api/config/:domain` and `PUT /api/config/:domain`
 * (domains auth, settings, sandbox). Paths are absolute: mount with `app.route("/", configRoutes)`.
 */
export const configRoutes = new Hono<AppEnv>()
  // Registered first, so it wins over /api/config/:domain.
  .get("/api/config/models", async (c) => {
    const catalog = await currentCatalog(c.env);
    return catalog.ok ? jsonOk(c, catalog.value) : jsonError(c, catalog.error);
  })
  .get("/api/config/:domain", async (c) => {
    const domain = c.req.param("domain");
    if (!isConfigDomain(domain)) return unknownDomain(c, domain);
    const stored = await readStored(c.env);
    const settings = stored.ok ? settingsOver(c.env, stored.value) : stored;
    if (!settings.ok) return jsonError(c, settings.error);
    return jsonOk(c, { formSchema: FORM_SCHEMAS[domain], values: domainValues(domain, settings.value) });
  })
  .put("/api/config/:domain", async (c) => {
    const domain = c.req.param("domain");
    if (!isConfigDomain(domain)) return unknownDomain(c, domain);
    if (!mayWrite(c)) return jsonError(c, fail("FORBIDDEN", "Changing the configuration needs the admin token (ADMIN_TOKEN) as the bearer token.").error);
    const body = await readJsonBody(c, "INVALID_JSON");
    if (!body.ok) return jsonError(c, body.error);
    const parsed = validate(ConfigPutRequestSchema, body.value, "VALIDATION_FAILED");
    if (!parsed.ok) return jsonError(c, parsed.error);
    const written = await writeDomain(c.env, domain, parsed.value.values);
    return written.ok ? jsonOk(c, { ok: true }) : jsonError(c, written.error);
  });
