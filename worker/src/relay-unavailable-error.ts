/**
 * The sidecar could not relay a request: it did not answer, refused the worker's token, or answered
 * in a way the relay does not speak. The fault is the deployment's, not the destination's; the
 * message says what to check and carries no secrets.
 */
export class RelayUnavailableError extends Error {
  override readonly name = "RelayUnavailableError";
}
