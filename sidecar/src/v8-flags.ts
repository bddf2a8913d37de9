import { setFlagsFromString } from "node:v8";

/**
 * V8's settings for the sidecar's work, applied at start. Without allocation-site pretenuring: in some processes V8
 * decided, from what survived its first collections, to allocate the parser's nodes in the old generation, and every
 * extraction after that paid for major collections of page trees that die young (WCEB's pages: 540 ms a pass in most
 * processes, 660–710 in those, 140 ms of it collecting; without pretenuring 515–550 in every one of 11 processes, the
 * other corpora unchanged). V8 reads this flag as it allocates, so setting it at start takes effect.
 */
export function applyV8Flags(): void {
  setFlagsFromString("--no-allocation-site-pretenuring");
}
