import { ok } from "@edge-web/shared";
import type { EgressResult } from "./egress-types.ts";
import type { RobotsRecord } from "./robots-record.ts";
import { compileRobots, type RobotsVerdict } from "./robots-rules.ts";

/** Origins kept at most; the one used longest ago goes first. */
const MAX_ORIGINS = 10_000;
/** RFC 9309 §2.4: rules kept up to 24 hours. */
const RULES_MS = 24 * 3_600_000;
/** An origin whose robots.txt failed is asked again sooner, so a bad minute on its server does not close it for a day. */
const FAILED_MS = 10 * 60_000;

type Check = (url: string) => RobotsVerdict;

/** Each origin's robots.txt as a compiled check, per process, reads of one origin shared while in flight; a failed read is not kept. */
export interface RobotsCache {
  check(origin: string, read: () => Promise<EgressResult<RobotsRecord>>): Promise<EgressResult<Check>>;
}

export function createRobotsCache(now: () => number = Date.now): RobotsCache {
  const entries = new Map<string, { check: Check; expiresAt: number }>();
  const reading = new Map<string, Promise<EgressResult<Check>>>();
  return {
    async check(origin, read) {
      const entry = entries.get(origin);
      if (entry && entry.expiresAt > now()) {
        // Map order is insertion order: re-inserting marks it as used last.
        entries.delete(origin);
        entries.set(origin, entry);
        return ok(entry.check);
      }
      entries.delete(origin);
      const pending = reading.get(origin);
      if (pending) return pending;
      const loaded = read()
        .then((read): EgressResult<Check> => {
          if (!read.ok) return read;
          const record = read.value;
          const check = compileRobots(record);
          entries.set(origin, { check, expiresAt: now() + (record.kind === "disallow-all" ? FAILED_MS : RULES_MS) });
          if (entries.size > MAX_ORIGINS) entries.delete(entries.keys().next().value!);
          return ok(check);
        })
        .finally(() => reading.delete(origin));
      reading.set(origin, loaded);
      return loaded;
    },
  };
}
