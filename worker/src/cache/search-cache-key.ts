import type { WebConfig } from "@edge-web/shared";

/** Queries that differ only in case, width or spacing share an entry. */
export function normalizeQuery(query: string): string {
  return query.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
}

/**
 * The KV key of a search: provider choice, result count and normalised query, plus the provider
 * settings that change answers (never keys), hashed to stay within KV's key length.
 */
export async function searchCacheKey(config: WebConfig, numResults: number, query: string): Promise<string> {
  const { provider, providerPriority, ddgs, brave, tavily, serper, openserp, searxng } = config;
  const endpoints = [ddgs.baseUrl, ...[brave, tavily, serper, openserp].map((p) => `${p.enabled}:${p.baseUrl}`), `${searxng.enabled}:${searxng.baseUrl}:${searxng.defaultEngine}`];
  const material = JSON.stringify([provider, numResults, normalizeQuery(query), providerPriority, endpoints]);
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(material));
  const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `search:v1:${hex}`;
}
