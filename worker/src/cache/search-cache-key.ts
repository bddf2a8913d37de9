import { canonicalProviders, KEYED_PROVIDERS, type SearchFilters, type SearchKeys, type WebConfig } from "@edge-web/shared";

/** Queries that differ only in case, width or spacing share an entry. */
export function normalizeQuery(query: string): string {
  return query.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
}

/** A domain list as a set: order and case do not change an answer. */
const domainSet = (domains: readonly string[] = []) => [...new Set(domains.map((domain) => domain.toLowerCase()))].sort();

/**
 * The KV key of a search: provider choice (the caller's as a set, else web.provider), result count,
 * normalised query and filters, plus the provider settings that change answers: endpoints, and
 * which providers hold a key (whether, never the key), since those decide what "all" asks. Hashed to
 * stay within KV's key length.
 */
export async function searchCacheKey(config: WebConfig, keys: SearchKeys, numResults: number, query: string, filters: SearchFilters = {}): Promise<string> {
  const { provider, providerPriority, ddgs, brave, tavily, serper, openserp, searxng } = config;
  const endpoints = [ddgs.baseUrl, ...[brave, tavily, serper, openserp].map((p) => `${p.enabled}:${p.baseUrl}`), `${searxng.enabled}:${searxng.baseUrl}:${searxng.defaultEngine}`];
  const keyed = KEYED_PROVIDERS.map((name) => Boolean(keys[name]));
  const asked = [filters.provider === undefined ? null : canonicalProviders(filters.provider), filters.recency ?? null, domainSet(filters.includeDomains), domainSet(filters.excludeDomains)];
  const material = JSON.stringify([provider, numResults, normalizeQuery(query), asked, providerPriority, endpoints, keyed]);
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(material));
  const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `search:v2:${hex}`;
}
