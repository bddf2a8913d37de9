import { fail, ok, type ThinkingLevel } from "@edge-web/shared";
import { AnthropicModel } from "./anthropic-model.ts";
import type { ModelProvider } from "./model-provider.ts";

/** Extended-thinking budgets (tokens) by level; Anthropic's minimum is 1024. */
const BUDGETS: Record<ThinkingLevel, number> = { minimal: 1_024, low: 2_048, medium: 8_192, high: 16_384, xhigh: 32_768 };

/** Anthropic's Messages API. It does not list models: configure them under `models`. */
export const anthropicProvider: ModelProvider = {
  api: "anthropic",
  languageModel({ settings }, modelId, fetch) {
    return new AnthropicModel(modelId, { baseURL: settings.baseURL, ...(settings.apiKey && { apiKey: settings.apiKey }), fetch });
  },
  async listModels({ name, settings }) {
    return settings.models ? ok(settings.models) : fail("INTERNAL_ERROR", `List the models of ${name} under auth.modelProviders.${name}.models.`);
  },
  thinkingOptions(_provider, level, model) {
    return model?.reasoning === false ? undefined : { anthropic: { thinking: { type: "enabled", budgetTokens: BUDGETS[level] } } };
  },
};
