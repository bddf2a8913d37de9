import { deepFreeze, type Applied, type DeepReadonly, type SearchResult } from "@edge-web/shared";

/** A query's answer as cached: its results and how its filters were applied. */
export interface SearchAnswer {
  results: SearchResult[];
  applied?: Record<string, Applied>;
}

/** Cached answers are frozen: every session in the isolate reads the same entry, and none may change it. */
export type CachedResults = DeepReadonly<SearchAnswer>;

export interface SearchCache {
  /** The results stored under `key`, if stored at most `maxAgeMs` ago (default: any age within the TTL; 0: none). */
  get(key: string, maxAgeMs?: number): Promise<CachedResults | undefined>;
  /** Stores a copy of `answer`; the caller keeps its own objects. */
  put(key: string, answer: SearchAnswer): Promise<void>;
}

interface Entry {
  answer: CachedResults;
  /** Epoch milliseconds; an entry stored without it counts as too old for any maxAge. */
  storedAt: number;
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
    async get(key, maxAgeMs = Infinity) {
      const now = Date.now();
      const young = (entry: Entry) => maxAgeMs > 0 && now - entry.storedAt <= maxAgeMs;
      const local = hot.get(key);
      if (local && local.expiresAt > now && young(local)) {
        remember(key, local);
        return local.answer;
      }
      // One too old for this caller may still serve others; KV may hold a younger one.
      if (local && local.expiresAt <= now) hot.delete(key);
      const stored = await kv.get<Entry>(key, "json").catch(() => null);
      if (!stored || stored.expiresAt <= now || !young(stored)) return undefined;
      const entry = deepFreeze(stored);
      remember(key, entry);
      return entry.answer;
    },
    async put(key, answer) {
      const now = Date.now();
      const text = JSON.stringify({ answer, storedAt: now, expiresAt: now + settings.ttlMs });
      remember(key, deepFreeze(JSON.parse(text) as Entry));
      // KV expires entries itself too; its minimum TTL is 60 s, which the config schema enforces.
      await kv.put(key, text, { expirationTtl: Math.ceil(settings.ttlMs / 1000) }).catch(() => {});
    },
  };
}
