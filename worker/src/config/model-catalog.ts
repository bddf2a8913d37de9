export interface ModelEntry {
  id: string;
  provider: string;
}

export interface ModelCatalog {
  providers: string[];
  models: ModelEntry[];
}

/** The models the service offers; none yet. */
export const MODEL_CATALOG: ModelCatalog = { providers: [], models: [] };

/** PI_WEB_HIDE_PROVIDERS: comma-separated provider names, compared case-sensitively; blanks ignored. */
export function parseHiddenProviders(raw: string | undefined): Set<string> {
  return new Set((raw ?? "").split(",").map((name) => name.trim()).filter(Boolean));
}

/** The catalog without the hidden providers and their models. */
export function hideProviders(catalog: ModelCatalog, raw: string | undefined): ModelCatalog {
  const hidden = parseHiddenProviders(raw);
  return {
    providers: catalog.providers.filter((name) => !hidden.has(name)),
    models: catalog.models.filter((model) => !hidden.has(model.provider)),
  };
}
