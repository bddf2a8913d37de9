import { ok, type Result } from "@edge-web/shared";
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
  check<F extends string>(origin: string, read: () => Promise<Result<RobotsRecord, F>>): Promise<Result<Check, F>>;
}

export function createRobotsCache(): RobotsCache {
  const entries = new Map<string, { check: Check; expiresAt: number }>();
  // Reads in flight, shared by every caller asking for that origin meanwhile (the guard is the one reader).
  const reading = new Map<string, Promise<Result<Check, string>>>();
  return {
    async check<F extends string>(origin: string, read: () => Promise<Result<RobotsRecord, F>>): Promise<Result<Check, F>> {
      const entry = entries.get(origin);
      if (entry && entry.expiresAt > Date.now()) {
        // Map order is insertion order: re-inserting marks it as used last.
        entries.delete(origin);
        entries.set(origin, entry);
        return ok(entry.check);
      }
      entries.delete(origin);
      const pending = reading.get(origin);
      if (pending) return pending as Promise<Result<Check, F>>;
      const loaded = read()
        .then((answer): Result<Check, F> => {
          if (!answer.ok) return answer;
          const record = answer.value;
          const check = compileRobots(record);
          entries.set(origin, { check, expiresAt: Date.now() + (record.kind === "disallow-all" ? FAILED_MS : RULES_MS) });
          if (entries.size > MAX_ORIGINS) entries.delete(entries.keys().next().value!);
          return ok(check);
        })
        .finally(() => reading.delete(origin));
      reading.set(origin, loaded);
      return loaded;
    },
  };
}
