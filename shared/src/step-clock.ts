/** Milliseconds spent per pipeline step, for verbose debug logs. */
export type StepTimings = Record<string, number>;

/** Whether a web.debug level asks for per-step timings ("verbose", and "trace" which adds the call's boundaries). */
export const wantsTimings = (debug: false | "minimal" | "verbose" | "trace") => debug === "verbose" || debug === "trace";

export interface StepClock {
  /** Adds the time since the previous lap (or the start) to `step`. */
  lap(step: string): void;
  timings(): StepTimings;
}

export function createStepClock(): StepClock {
  const timings: StepTimings = {};
  let last = performance.now();
  return {
    lap(step) {
      const now = performance.now();
      timings[step] = Math.round(((timings[step] ?? 0) + now - last) * 100) / 100;
      last = now;
    },
    timings: () => ({ ...timings }),
  };
}
