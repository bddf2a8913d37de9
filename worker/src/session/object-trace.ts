/** A call's boundaries inside the session object (epoch ms) and its steps, for web.debug "trace". */
export interface ObjectTrace {
  entered: number;
  /** The tool has run: its sidecar requests answered, its result stored, its frames written and fanned out. */
  ran?: number;
  /** Its writes committed (the session's flush). */
  flushed?: number;
  steps?: Record<string, number>;
}
