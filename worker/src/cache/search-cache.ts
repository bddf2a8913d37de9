import type { SearchResult } from "@edge-web/shared";

export interface SearchCache {
  get(key: string): Promise<SearchResult[] | undefined>;
  put(key: string, results: SearchResult[]): Promise<void>;
}

interface Entry {
  results: SearchResult[];
  expiresAt: number;
}

/** Per-isolate hot entries in front of KV (web.cache.maxEntries); Map order is recency order. */
const hot = new Map<string, Entry>();

/**
 * Successful searches in KV for web.cache.ttlMs, with a small in-memory layer in front. Best effort:
 * a KV failure is a miss, never an error for the caller.
 */
export function createSearchCache(kv: KVNamespace, settings: { ttlMs: number; maxEntries: number }): SearchCache {
  const remember = (key: string, entry: Entry) => {
    hot.delete(key);
    hot.set(key, entry);
    for (const oldest of hot.keys()) {
      if (hot.size <= settings.maxEntries) break;
      hot.delete(oldest);
    }
  };
  return {
    async get(key) {
      const now = Date.now();
      const local = hot.get(key);
      if (local && local.expiresAt > now) {
        remember(key, local);
        return local.results;
      }
      hot.delete(key);
      const stored = await kv.get<Entry>(key, "json").catch(() => null);
      if (!stored || stored.expiresAt <= now) return undefined;
      remember(key, stored);
      return stored.results;
    },
    async put(key, results) {
      const entry = { results, expiresAt: Date.now() + settings.ttlMs };
      remember(key, entry);
      // KV expires entries itself too; its minimum TTL is 60 s, which the config schema enforces.
      await kv.put(key, JSON.stringify(entry), { expirationTtl: Math.ceil(settings.ttlMs / 1000) }).catch(() => {});
    },
  };
}
