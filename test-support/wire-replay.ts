/**
 * An answer a test has a server give: a status, headers, and a body written in `pieces` (each on its
 * own, a few milliseconds apart, as the network brings a stream), or a `body` cut into `sliceBytes`-byte
 * pieces (so a piece may end inside a line or a character).
 */
export interface WireReplay {
  status?: number;
  headers?: Record<string, string>;
  pieces?: string[];
  body?: string;
  sliceBytes?: number;
  /** Spaces written after the pieces, this many: a long error page without a long header to ask for it. */
  padding?: number;
  /** The connection is reset after the last piece instead of the answer ending. */
  reset?: boolean;
}

/** The request header carrying the answer to give: a WireReplay as base64 of its JSON's UTF-8. */
export const REPLAY_HEADER = "x-wire-replay";
