import { ALL_PROVIDERS, canonicalProviders, fail, ok, PROVIDER_NAMES, type ProviderName, type Result, type SidecarSearchRequest } from "@edge-web/shared";
import type { SearchProvider } from "./provider.ts";
import { SEARCH_PROVIDERS } from "./registry.ts";

/** Auto mode asks paid APIs first, then self-hosted instances, then DuckDuckGo, which needs no setup. */
const TIERS: readonly (readonly ProviderName[])[] = [["tavily", "serper", "brave"], ["openserp", "searxng"], ["ddgs"]];

export type ProviderList = [SearchProvider, ...SearchProvider[]];

export interface Selection {
  providers: ProviderList;
  /** Asked all at once, their results fused (a list or "all"), rather than one after another until one answers. */
  merge: boolean;
}

/**
 * A provider the caller named that this service cannot ask. One message whatever the reason (not
 * enabled, no key, no instance), so that callers learn nothing of which keys the service holds; no
 * `fields`, which say the request's shape was wrong (the name is valid, this deployment lacks it).
 */
const unavailable = (name: ProviderName) =>
  fail("INVALID_INPUT", `The search provider "${name}" is not available on this service; choose another, or leave \`provider\` out for the service's choice.`);

/**
 * The providers to ask. The caller's choice (`requested`) comes first: "all" is every usable one,
 * a list is asked whole (each must be usable), one name is the only one asked. Without it,
 * web.provider: an explicit provider must be usable and is the only one tried (its failure says what
 * to configure); `auto` walks the tiers, each ordered by providerPriority (unlisted ones last, in
 * tier order), silently leaving out the unusable.
 */
export function selectProviders(req: Pick<SidecarSearchRequest, "provider" | "requested" | "providerPriority" | "providers">): Result<Selection> {
  const usable = (provider: SearchProvider) => provider.usable(req.providers) === true;
  const requested = req.requested && canonicalProviders(req.requested);
  if (requested === ALL_PROVIDERS) return listed(PROVIDER_NAMES.map((name) => SEARCH_PROVIDERS[name]).filter(usable), true);
  if (requested !== undefined) {
    const names = Array.isArray(requested) ? requested : [requested];
    const refused = names.find((name) => !usable(SEARCH_PROVIDERS[name]));
    return refused ? unavailable(refused) : listed(names.map((name) => SEARCH_PROVIDERS[name]), Array.isArray(requested));
  }
  if (req.provider !== "auto") {
    const provider = SEARCH_PROVIDERS[req.provider];
    const answer = provider.usable(req.providers);
    return answer === true ? ok({ providers: [provider], merge: false }) : { ok: false, error: answer };
  }
  const rank = (name: ProviderName) => {
    const index = req.providerPriority.indexOf(name);
    return index < 0 ? PROVIDER_NAMES.length : index;
  };
  const ordered = TIERS.flatMap((tier) => tier.toSorted((a, b) => rank(a) - rank(b)));
  return listed(ordered.map((name) => SEARCH_PROVIDERS[name]).filter(usable), false);
}

function listed(providers: SearchProvider[], merge: boolean): Result<Selection> {
  const [first, ...rest] = providers;
  // DuckDuckGo is always usable, so this only guards the type.
  return first ? ok({ providers: [first, ...rest], merge }) : fail("INVALID_INPUT", "No search provider is usable: enable one under web.* or set web.provider.");
}
