import type { ThinkingLevel } from "@edge-web/shared";
import type { LanguageModel } from "ai";
import type { Settings } from "../../config/resolve-settings.ts";
import { setBounded } from "../../set-bounded.ts";
import type { ProviderOptions } from "../wire/model-provider.ts";
import { MODEL_PROVIDERS } from "../wire/model-providers.ts";
import type { ResolvedModel } from "./resolve-model.ts";

/** The model one call goes to, and how: model and thinking changes apply from the next call. */
export interface ModelHandle {
  model: LanguageModel;
  provider: string;
  api: string;
  providerOptions?: ProviderOptions;
  /** How long the model may send nothing while it streams (settings.agent.modelTimeoutMs). */
  idleMs: number;
}

/**
 * Language models built per settings resolution, provider and model, for every session of the
 * isolate (a provider builds its stream parsers per model: once, not per call or per session). The
 * same resolution means the same configuration, key, timeout and egress; a model keeps nothing
 * between calls.
 */
const models = new Map<string, LanguageModel>();
const MODELS_CAPACITY = 64;

/**
 * The handle of `resolved` at thinking `level`, its requests made through `fetch` (its model built
 * once per settings, provider and model: the same settings mean the same timeout and egress).
 */
export function openModel(settings: Settings, resolved: ResolvedModel, level: ThinkingLevel, fetch: () => typeof globalThis.fetch): ModelHandle {
  const member = MODEL_PROVIDERS[resolved.provider.settings.api];
  const providerOptions = member.thinkingOptions(resolved.provider, level, resolved.entry);
  const key = `${settings.id}\u0000${resolved.provider.name}\u0000${resolved.modelId}`;
  let model = models.get(key);
  if (!model) setBounded(models, key, (model = member.languageModel(resolved.provider, resolved.modelId, fetch())), MODELS_CAPACITY);
  return {
    model,
    idleMs: settings.agent.modelTimeoutMs,
    provider: resolved.provider.name,
    api: resolved.provider.settings.api,
    ...(providerOptions && { providerOptions }),
  };
}
