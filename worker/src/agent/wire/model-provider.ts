import type { ModelApi, ModelEntry, ModelProviderConfig, Result, ThinkingLevel } from "@edge-web/shared";
import type { LanguageModel, streamText } from "ai";

/** The AI SDK's per-provider options (thinking levels become these). */
export type ProviderOptions = NonNullable<Parameters<typeof streamText>[0]["providerOptions"]>;

/** A configured provider as the agent uses it: its name under auth.modelProviders and its settings. */
export interface NamedProvider {
  name: string;
  settings: ModelProviderConfig;
}

/**
 * The model provider family: one member per API, one registry (model-providers.ts). A member makes
 * language models for the AI SDK, lists the models a provider offers, and says how a thinking level
 * reaches its API.
 */
export interface ModelProvider {
  api: ModelApi;
  languageModel(provider: NamedProvider, modelId: string, fetch: typeof globalThis.fetch): LanguageModel;
  /** The configured `models`, or what the provider lists itself; never throws. */
  listModels(provider: NamedProvider, fetch: typeof globalThis.fetch): Promise<Result<ModelEntry[]>>;
  /** The AI SDK provider options for a thinking level, or undefined for a model that does not reason. */
  thinkingOptions(provider: NamedProvider, level: ThinkingLevel, model: ModelEntry | undefined): ProviderOptions | undefined;
}
