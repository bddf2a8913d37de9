import { fail, ok, type ModelEntry, type Result } from "@edge-web/shared";
import type { AgentSettings } from "../../config/resolve-settings.ts";
import type { NamedProvider } from "../wire/model-provider.ts";

/** A session's choice of model (POST /model), kept in its storage. */
export interface ModelSelection {
  provider: string;
  modelId: string;
}

export interface ResolvedModel {
  provider: NamedProvider;
  modelId: string;
  /** The configured entry, when the provider lists its models in the config (prices, reasoning). */
  entry?: ModelEntry;
}

const notConfigured = (why: string) =>
  fail(
    "MODEL_NOT_CONFIGURED",
    `${why} Configure a provider under auth.modelProviders (PUT /api/config/auth) and choose it with settings.defaultProvider and settings.defaultModel (PUT /api/config/settings), or with POST /api/sessions/:id/model.`,
  );

/**
 * The model a turn calls: the session's choice, else the settings' defaults (a session created with
 * a `model` names the default provider's model). With one provider configured it is the default
 * provider; a provider whose `models` are listed defaults to the first.
 */
export function resolveModel(agent: AgentSettings, selection: ModelSelection | undefined, sessionModel: string | undefined): Result<ResolvedModel> {
  const names = Object.keys(agent.modelProviders);
  const providerName = selection?.provider ?? agent.defaultProvider ?? (names.length === 1 ? names[0] : undefined);
  if (names.length === 0) return notConfigured("No model provider is configured.");
  if (!providerName) return notConfigured("Several model providers are configured and none is the default.");
  const settings = agent.modelProviders[providerName];
  if (!settings) return notConfigured(`The model provider "${providerName}" is not configured.`);
  const modelId = selection?.modelId ?? sessionModel ?? agent.defaultModel ?? settings.models?.[0]?.id;
  if (!modelId) return notConfigured(`No model of "${providerName}" is chosen.`);
  const entry = settings.models?.find((model) => model.id === modelId);
  return ok({ provider: { name: providerName, settings }, modelId, ...(entry && { entry }) });
}
