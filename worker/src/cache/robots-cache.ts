import { deepFreeze, robotsKeepMs, SentRobotsEntrySchema, type RobotsEntry } from "@edge-web/shared";
import * as v from "valibot";
import { setBounded } from "../set-bounded.ts";
import { robotsCacheKey } from "./robots-cache-key.ts";

/** KV's shortest TTL, in seconds. */
const KV_MIN_TTL_S = 60;
/** Origins whose records this isolate holds in front of KV. */
const HOT_ORIGINS = 1_000;

/**
 * Records this isolate read or kept, frozen, while they last: the pages of one origin in a call
 * (fetch_content's urls, web_search's includeContent) and calls soon after read KV once, not once each.
 */
const hot = new Map<string, RobotsEntry>();
const lasts = (entry: RobotsEntry) => Date.now() < entry.readAt + robotsKeepMs(entry.record);

/**
 * What origins' robots.txt said, in KV, shared by every sidecar behind the deployment (the sidecar
 * keeps no state and cannot reach KV): the worker sends an origin's record with each request for
 * one of its URLs, and keeps what the sidecar reports it read.
 */
export interface RobotsCache {
  /** The record KV holds for the URL's origin, if it holds one that passes; the sidecar judges its freshness. */
  get(url: string): Promise<RobotsEntry | undefined>;
  /** Keeps the records for what is left of their life (24 h, a failed read 10 min); the caller does not wait for KV. */
  put(entries: readonly RobotsEntry[]): void;
}

/** Best effort, like the fetch cache: a KV failure is a record missing (robots.txt is read again), a refused write is dropped. */
export function createRobotsCache(kv: KVNamespace): RobotsCache {
  return {
    async get(url) {
      const key = robotsCacheKey(url);
      if (!key) return undefined;
      const held = hot.get(key);
      if (held && lasts(held)) return held;
      const stored = await kv.get(key, "json").catch(() => null);
      const entry = v.parse(SentRobotsEntrySchema, stored);
      // A record of another origin under this key would speak for the wrong site.
      if (!entry || robotsCacheKey(entry.origin) !== key) return undefined;
      setBounded(hot, key, deepFreeze(entry), HOT_ORIGINS);
      return entry;
    },
    put(entries) {
      for (const entry of entries) {
        const key = robotsCacheKey(entry.origin);
        const leftMs = entry.readAt + robotsKeepMs(entry.record) - Date.now();
        if (!key || leftMs <= 0) continue;
        setBounded(hot, key, deepFreeze(entry), HOT_ORIGINS);
        // The record's own time stamp says when it goes stale: KV may keep it a little longer (its minimum TTL), never as fresh.
        const expirationTtl = Math.max(KV_MIN_TTL_S, Math.ceil(leftMs / 1000));
        // Not awaited: the session's object runs the write to its end.
        void kv.put(key, JSON.stringify(entry), { expirationTtl }).catch(() => {});
      }
    },
  };
}
