import type { KeyedProviderName, SearchProviderSettings } from "@edge-web/shared";

/** Where the operator sets a provider's key, e.g. "BRAVE_SEARCH_API_KEY or brave.apiKey via /api/config/auth". */
export function keySetting(name: KeyedProviderName, settings: SearchProviderSettings[KeyedProviderName]): string {
  return `${settings.apiKeyEnv} or ${name}.apiKey via /api/config/auth`;
}
