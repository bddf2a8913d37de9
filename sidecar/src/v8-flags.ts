import { setFlagsFromString } from "node:v8";

/**
 * V8's settings for the sidecar's work, applied at start. Without allocation-site pretenuring: some processes settled
 * in a state where every extraction paid for major collections (WCEB's pages: about 540 ms a pass in some processes,
 * 660–710 in others, 140 ms of it collecting), which switching pretenuring off removes: allocations seen to survive
 * early go to the old generation, where page trees that die young are costly to collect (515–550 ms in every one of
 * 11 processes; the other corpora unchanged). V8 reads this flag as it allocates, so setting it at start takes effect.
 */
export function applyV8Flags(): void {
  setFlagsFromString("--no-allocation-site-pretenuring");
}
