import type { ModelApi } from "@edge-web/shared";
import { anthropicProvider } from "./anthropic-provider.ts";
import type { ModelProvider } from "./model-provider.ts";
import { openAICompatibleProvider } from "./openai-compatible-provider.ts";

/** The model providers, by API. */
export const MODEL_PROVIDERS: Record<ModelApi, ModelProvider> = {
  "openai-compatible": openAICompatibleProvider,
  anthropic: anthropicProvider,
};
