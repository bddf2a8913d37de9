import { fail, ok, withoutTrailing } from "@edge-web/shared";
import type { ModelProvider } from "./model-provider.ts";
import { OpenAICompatibleModel } from "./openai-compatible-model.ts";

/** How long listing a provider's models may take. */
const LIST_TIMEOUT_MS = 5_000;

/** Any server speaking OpenAI's Chat Completions API: hosted ones, or local servers such as llama.cpp, vLLM or Ollama. */
export const openAICompatibleProvider: ModelProvider = {
  api: "openai-compatible",
  languageModel({ name, settings }, modelId, fetch) {
    return new OpenAICompatibleModel(modelId, { name, baseURL: settings.baseURL, ...(settings.apiKey && { apiKey: settings.apiKey }), fetch });
  },
  async listModels({ name, settings }, fetch) {
    if (settings.models) return ok(settings.models);
    try {
      const response = await fetch(`${withoutTrailing(settings.baseURL, "/")}/models`, {
        headers: { accept: "application/json", ...(settings.apiKey && { authorization: `Bearer ${settings.apiKey}` }) },
        signal: AbortSignal.timeout(LIST_TIMEOUT_MS),
      });
      if (!response.ok) {
        await response.body?.cancel();
        return fail("INTERNAL_ERROR", `${name} answered HTTP ${response.status} to GET /models; list its models under auth.modelProviders.${name}.models.`);
      }
      const body = (await response.json()) as { data?: Array<{ id?: unknown }> };
      const ids = (body.data ?? []).map((entry) => entry.id).filter((id): id is string => typeof id === "string");
      return ok(ids.map((id) => ({ id })));
    } catch {
      return fail("INTERNAL_ERROR", `${name} could not be asked for its models; check auth.modelProviders.${name}.baseURL or list its models there.`);
    }
  },
  thinkingOptions({ name }, level, model) {
    // reasoning_effort; models marked reasoning: false reject it, so they get none.
    return model?.reasoning === false ? undefined : { [name]: { reasoningEffort: level } };
  },
};
