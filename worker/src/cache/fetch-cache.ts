import { deepFreeze, type DeepReadonly, type ExtractedContent, type Validators } from "@edge-web/shared";

/** A page as the fetch cache keeps it: the extracted page, when the origin was read for it, and its validators. */
export interface CachedPage {
  page: ExtractedContent;
  /** Epoch milliseconds: when the origin was read, or last said (304) that the copy is current. */
  fetchedAt: number;
  validators?: Validators;
}

/** Cached pages are frozen: every session in the isolate may read the same one, and none may change it. */
export type HeldPage = DeepReadonly<CachedPage>;

export interface FetchCache {
  /** The youngest copy of the page there is; KV is asked only when this isolate's copy is older than `maxAgeMs`. */
  get(key: string, maxAgeMs: number): Promise<HeldPage | undefined>;
  /** Stores a copy of `entry`; the caller keeps its own objects. One larger than KV takes is not stored. */
  put(key: string, entry: CachedPage): Promise<void>;
}

/** KV's largest value. */
const KV_MAX_VALUE_BYTES = 25 * 1024 * 1024;
/** The most content characters the isolate's copies hold in all (about 4 MB); the least recently used go first. */
const HOT_CHARS = 2_000_000;

/** Per-isolate copies in front of KV; Map order is recency order. */
const hot = new Map<string, HeldPage>();
let hotChars = 0;

function forget(key: string): void {
  const held = hot.get(key);
  if (!held) return;
  hot.delete(key);
  hotChars -= held.page.content.length;
}

function hold(key: string, entry: HeldPage): void {
  forget(key);
  hot.set(key, entry);
  hotChars += entry.page.content.length;
  for (const oldest of hot.keys()) {
    if (hotChars <= HOT_CHARS) break;
    forget(oldest);
  }
}

/**
 * Extracted pages in KV for web.fetchCache.ttlMs, shared by every session of the deployment, with
 * the isolate's recent ones in memory in front. Best effort: a KV failure is a miss, and a refused
 * write (KV takes one write per second per key) is dropped, never an error for the caller.
 */
export function createFetchCache(kv: KVNamespace, settings: { ttlMs: number }): FetchCache {
  return {
    async get(key, maxAgeMs) {
      const now = Date.now();
      // What KV no longer keeps, the isolate does not either.
      if ((hot.get(key)?.fetchedAt ?? now) < now - settings.ttlMs) forget(key);
      const local = hot.get(key);
      if (local && now - local.fetchedAt <= maxAgeMs) {
        hold(key, local);
        return local;
      }
      const stored = await kv.get<CachedPage>(key, "json").catch(() => null);
      // Another isolate may have refreshed it; an older one is no better than ours.
      if (!stored || (local && stored.fetchedAt <= local.fetchedAt)) return local;
      const entry = deepFreeze(stored);
      hold(key, entry);
      return entry;
    },
    async put(key, entry) {
      const text = JSON.stringify(entry);
      if (new TextEncoder().encode(text).byteLength > KV_MAX_VALUE_BYTES) return;
      hold(key, deepFreeze(JSON.parse(text) as CachedPage));
      // The config schema keeps ttlMs at KV's minimum TTL (60 s) or more.
      await kv.put(key, text, { expirationTtl: Math.ceil(settings.ttlMs / 1000) }).catch(() => {});
    },
  };
}
