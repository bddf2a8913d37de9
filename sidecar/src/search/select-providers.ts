import { fail, ok, PROVIDER_NAMES, type ProviderName, type Result, type SidecarSearchRequest } from "@edge-web/shared";
import type { SearchProvider } from "./provider.ts";
import { SEARCH_PROVIDERS } from "./registry.ts";

/** Auto mode asks paid APIs first, then self-hosted instances, then DuckDuckGo, which needs no setup. */
const TIERS: readonly (readonly ProviderName[])[] = [["tavily", "serper", "brave"], ["openserp", "searxng"], ["ddgs"]];

export type ProviderList = [SearchProvider, ...SearchProvider[]];

/**
 * The providers to try, in order. An explicit provider must be usable and is the only one tried;
 * `auto` walks the tiers, each ordered by providerPriority (unlisted ones last, in tier order),
 * silently leaving out the unusable.
 */
export function selectProviders(req: Pick<SidecarSearchRequest, "provider" | "providerPriority" | "providers">): Result<ProviderList> {
  if (req.provider !== "auto") {
    const provider = SEARCH_PROVIDERS[req.provider];
    const usable = provider.usable(req.providers);
    return usable === true ? ok([provider]) : { ok: false, error: usable };
  }
  const rank = (name: ProviderName) => {
    const index = req.providerPriority.indexOf(name);
    return index < 0 ? PROVIDER_NAMES.length : index;
  };
  const ordered = TIERS.flatMap((tier) => tier.toSorted((a, b) => rank(a) - rank(b)));
  const [first, ...rest] = ordered.map((name) => SEARCH_PROVIDERS[name]).filter((provider) => provider.usable(req.providers) === true);
  // DuckDuckGo is always usable, so this only guards the type.
  return first ? ok([first, ...rest]) : fail("INVALID_INPUT", "No search provider is usable: enable one under web.* or set web.provider.");
}
