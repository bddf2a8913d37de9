import type { LookupFunction } from "node:net";
import { Pool } from "undici";
import type { DispatcherSource, VettedAddress } from "./egress-types.ts";

/**
 * A lookup that always answers the vetted address, so the socket can only go there while TLS still
 * sees (and verifies) the real host name. Node asks with { all: true } when it races address
 * families, and then wants an array.
 */
function pinnedLookup(vetted: VettedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [vetted]);
    else callback(null, vetted.address, vetted.family);
  };
}

/**
 * Keep-alive pools keyed by origin, vetted address and pool size: a host that resolves elsewhere
 * later gets a fresh pool, never a socket to its old address. A request's own pool settings
 * (web.connectionPool) choose its pool's size and idle timeout; the defaults apply otherwise. The
 * least recently used pool beyond maxOrigins is closed (in-flight requests finish first).
 */
export function createDispatcherPool(options: {
  maxSockets: number;
  keepAliveTimeoutMs: number;
  maxOrigins?: number;
  connect?: { ca?: string | Buffer };
}): DispatcherSource {
  const { maxOrigins = 100, connect } = options;
  const fallback = { maxSockets: options.maxSockets, timeout: options.keepAliveTimeoutMs };
  const pools = new Map<string, Pool>(); // insertion order doubles as recency order
  return {
    dispatcherFor(origin, vetted, { maxSockets, timeout } = fallback) {
      const key = `${origin} ${vetted.address} ${maxSockets} ${timeout}`;
      const pool =
        pools.get(key) ??
        new Pool(origin, {
          connections: maxSockets,
          keepAliveTimeout: timeout,
          // A server's Keep-Alive hint may shorten the idle time, never stretch it past the setting.
          keepAliveMaxTimeout: timeout,
          connect: { ...connect, lookup: pinnedLookup(vetted) },
        });
      pools.delete(key);
      pools.set(key, pool);
      for (const [oldKey, old] of pools) {
        if (pools.size <= maxOrigins) break;
        pools.delete(oldKey);
        old.close().catch(() => {});
      }
      return pool;
    },
    async close() {
      const all = [...pools.values()];
      pools.clear();
      await Promise.all(all.map((pool) => pool.close()));
    },
  };
}
