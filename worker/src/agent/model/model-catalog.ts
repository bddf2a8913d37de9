import { ok, type Result } from "@edge-web/shared";
import type { AgentSettings } from "../../config/resolve-settings.ts";
import { loadSettings } from "../../config/load-settings.ts";
import type { Env } from "../../env.ts";
import { catalogModel, type CatalogModel } from "./catalog-model.ts";
import { modelEgress } from "../wire/model-egress.ts";
import { MODEL_PROVIDERS } from "../wire/model-providers.ts";

export interface ModelCatalog {
  providers: string[];
  models: CatalogModel[];
}

/** PI_WEB_HIDE_PROVIDERS: comma-separated provider names, compared case-sensitively; blanks ignored. */
export function parseHiddenProviders(raw: string | undefined): Set<string> {
  return new Set((raw ?? "").split(",").map((name) => name.trim()).filter(Boolean));
}

/** The catalog without the hidden providers and their models. */
export function hideProviders<M extends { provider: string }>(catalog: { providers: string[]; models: M[] }, raw: string | undefined): { providers: string[]; models: M[] } {
  const hidden = parseHiddenProviders(raw);
  return {
    providers: catalog.providers.filter((name) => !hidden.has(name)),
    models: catalog.models.filter((model) => !hidden.has(model.provider)),
  };
}

/**
 * The models of every configured provider (auth.modelProviders), minus PI_WEB_HIDE_PROVIDERS: the
 * configured `models`, or what an OpenAI-compatible provider lists at GET {baseURL}/models. A
 * provider that cannot be listed contributes no models.
 */
export async function modelCatalog(agent: AgentSettings, hiddenProviders: string | undefined, egress: (provider: string) => typeof globalThis.fetch): Promise<ModelCatalog> {
  const named = Object.entries(agent.modelProviders);
  const listed = await Promise.all(
    named.map(async ([name, settings]) => {
      const models = await MODEL_PROVIDERS[settings.api].listModels({ name, settings }, egress(name));
      return (models.ok ? models.value : []).map((entry) => catalogModel({ name, settings }, entry, agent.compaction.defaultContextWindow));
    }),
  );
  return hideProviders({ providers: named.map(([name]) => name), models: listed.flat() }, hiddenProviders);
}

/** The catalog under the worker's current settings (the config API's and a session's list of models). */
export async function currentCatalog(env: Env): Promise<Result<ModelCatalog>> {
  const settings = await loadSettings(env);
  if (!settings.ok) return settings;
  return ok(await modelCatalog(settings.value.agent, env.PI_WEB_HIDE_PROVIDERS, (provider) => modelEgress(env, settings.value, provider)));
}
