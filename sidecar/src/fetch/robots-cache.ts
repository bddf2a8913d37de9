import { ok, robotsKeepMs, type Result, type RobotsEntry, type RobotsRecord } from "@edge-web/shared";
import { compileRobots, type RobotsVerdict } from "./robots-rules.ts";

/** Origins kept at most; the one used longest ago goes first. */
const MAX_ORIGINS = 10_000;
/** How far ahead of this clock another process's time stamp may be and still count (clocks differ a little). */
const MAX_SKEW_MS = 60_000;

type Check = (url: string) => RobotsVerdict;

/** An origin's check, and the record when it was read for this call (or a read it joined), to report. */
export interface RobotsCheck {
  check: Check;
  read?: RobotsEntry;
}

/**
 * Each origin's robots.txt as a compiled check, per process, reads of one origin shared while in
 * flight (a failed one is not shared: its caller's); a failed read is not kept. A record given by the caller (another sidecar's read, kept by
 * the worker) is used while fresh by its own time stamp, unless this process read the origin later.
 */
export interface RobotsCache {
  check<F extends string>(origin: string, given: RobotsEntry | undefined, read: () => Promise<Result<RobotsRecord, F>>): Promise<Result<RobotsCheck, F>>;
}

interface Held {
  check: Check;
  readAt: number;
  expiresAt: number;
}

const isFresh = (entry: RobotsEntry, now: number) => {
  const age = now - entry.readAt;
  return age > -MAX_SKEW_MS && age < robotsKeepMs(entry.record);
};

export function createRobotsCache(): RobotsCache {
  const entries = new Map<string, Held>();
  // Reads in flight, shared by every caller asking for that origin meanwhile (the guard is the one reader).
  const reading = new Map<string, Promise<Result<RobotsCheck, string>>>();
  const keep = (origin: string, held: Held) => {
    // Map order is insertion order: re-inserting marks it as used last.
    entries.delete(origin);
    entries.set(origin, held);
    if (entries.size > MAX_ORIGINS) entries.delete(entries.keys().next().value!);
  };
  return {
    async check<F extends string>(origin: string, given: RobotsEntry | undefined, read: () => Promise<Result<RobotsRecord, F>>): Promise<Result<RobotsCheck, F>> {
      const now = Date.now();
      let held = entries.get(origin);
      if (given?.origin === origin && isFresh(given, now) && !(held && held.readAt >= given.readAt)) {
        held = { check: compileRobots(given.record), readAt: given.readAt, expiresAt: given.readAt + robotsKeepMs(given.record) };
      }
      if (held && held.expiresAt > now) {
        keep(origin, held);
        return ok({ check: held.check });
      }
      entries.delete(origin);
      // A read in flight is joined; its failure is its own caller's (an abort, a short deadline, a
      // policy), so a caller it fails reads for itself.
      const pending = reading.get(origin);
      const joined = pending && (await pending);
      if (joined?.ok) return joined as Result<RobotsCheck, F>;
      // The origin was read between the request and its answer: the request's time errs on the old side.
      const readAt = Date.now();
      const loaded = read()
        .then((answer): Result<RobotsCheck, F> => {
          if (!answer.ok) return answer;
          const record = answer.value;
          const check = compileRobots(record);
          keep(origin, { check, readAt, expiresAt: readAt + robotsKeepMs(record) });
          return ok({ check, read: { origin, readAt, record } });
        })
        .finally(() => {
          // Callers a failed read sent off on their own may have started another meanwhile.
          if (reading.get(origin) === loaded) reading.delete(origin);
        });
      reading.set(origin, loaded);
      return loaded;
    },
  };
}
