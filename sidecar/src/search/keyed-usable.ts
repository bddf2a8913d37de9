import { fail, failWith, type CodedError, type KeyedProviderName, type SearchProviderSettings } from "@edge-web/shared";
import { keySetting } from "./key-setting.ts";

/** A keyed provider is usable once enabled and, when it cannot work without one, given a key. */
export function keyedUsable(
  provider: { name: KeyedProviderName; label: string },
  settings: SearchProviderSettings[KeyedProviderName],
  keyRequired: boolean,
): true | CodedError {
  const { name, label } = provider;
  if (!settings.enabled) {
    return fail("INVALID_INPUT", `${label} is not enabled: set web.${name}.enabled to true, or choose another provider.`).error;
  }
  if (keyRequired && !settings.apiKey) {
    // The service lacks configuration, not the provider: 503.
    return failWith("PROVIDER_AUTH_FAILED", `${label} needs an API key: set ${keySetting(name, settings)}.`, { fault: "unavailable" }).error;
  }
  return true;
}
