import type { ModelApi, ModelEntry } from "@edge-web/shared";
import type { NamedProvider } from "../wire/model-provider.ts";

/**
 * A model as the session's model list (`GET /models`), its state (`GET /state`) and the config API
 * show it: pi's `Model` shape. `cost` is in USD per million tokens, as pi has it.
 */
export interface CatalogModel {
  id: string;
  name: string;
  api: string;
  provider: string;
  /** Always "" here: see catalogModel. */
  baseUrl: string;
  reasoning: boolean;
  input: Array<"text" | "image">;
  cost: { input: number; output: number; cacheRead: number; cacheWrite: number };
  contextWindow: number;
  maxTokens: number;
}

/** Our provider families by the names pi gives their wire formats. */
const PI_APIS: Record<ModelApi, string> = { "openai-compatible": "openai-completions", anthropic: "anthropic-messages" };

/**
 * `entry` of `provider` in pi's shape, what is not configured filled in as a turn treats it:
 * - `baseUrl` is "" (pi's schema takes any string): the worker calls the model, never the client,
 *   and a provider's address (often an operator's private one) is no caller's business.
 * - `input` is text and images: a turn sends a message's images to every model.
 * - `contextWindow` is the configured one, else `defaultContextWindow` (what compaction uses);
 *   `maxTokens` is the window, since a turn sets no output limit of its own.
 */
export function catalogModel(provider: NamedProvider, entry: ModelEntry, defaultContextWindow: number): CatalogModel {
  const contextWindow = entry.contextWindow ?? defaultContextWindow;
  const cost = entry.cost;
  return {
    id: entry.id,
    name: entry.name ?? entry.id,
    api: PI_APIS[provider.settings.api],
    provider: provider.name,
    baseUrl: "",
    reasoning: entry.reasoning ?? false,
    input: ["text", "image"],
    cost: { input: cost?.input ?? 0, output: cost?.output ?? 0, cacheRead: cost?.cacheRead ?? 0, cacheWrite: cost?.cacheWrite ?? 0 },
    contextWindow,
    maxTokens: contextWindow,
  };
}
