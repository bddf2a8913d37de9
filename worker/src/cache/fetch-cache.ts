import type { ExtractedContent, Validators } from "@edge-web/shared";

/** A page as the fetch cache keeps it: the extracted page, when the origin was read for it, and its validators. */
export interface CachedPage {
  page: ExtractedContent;
  /** Epoch milliseconds: when the origin was read, or last said (304) that the copy is current. */
  fetchedAt: number;
  validators?: Validators;
}

export interface FetchCache {
  get(key: string): Promise<CachedPage | undefined>;
  /** Stores a copy of `entry`; one larger than KV takes is not stored. */
  put(key: string, entry: CachedPage): Promise<void>;
}

/** KV's largest value. */
const KV_MAX_VALUE_BYTES = 25 * 1024 * 1024;

/**
 * Extracted pages in KV for web.fetchCache.ttlMs, shared by every session of the deployment. Each
 * read parses its own copy, so no caller can change what another reads. Best effort: a KV failure
 * is a miss, and a refused write (KV takes one write per second per key) is dropped, never an
 * error for the caller.
 */
export function createFetchCache(kv: KVNamespace, settings: { ttlMs: number }): FetchCache {
  return {
    async get(key) {
      return (await kv.get<CachedPage>(key, "json").catch(() => null)) ?? undefined;
    },
    async put(key, entry) {
      const text = JSON.stringify(entry);
      if (new TextEncoder().encode(text).byteLength > KV_MAX_VALUE_BYTES) return;
      // The config schema keeps ttlMs at KV's minimum TTL (60 s) or more.
      await kv.put(key, text, { expirationTtl: Math.ceil(settings.ttlMs / 1000) }).catch(() => {});
    },
  };
}
