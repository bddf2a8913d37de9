/**
 * The sidecar answered a relayed request itself, because the destination's answer never came:
 * status 403 is the network policy's refusal (code "blocked"); 400 a request the relay cannot send
 * ("invalid-url", "config", VALIDATION_FAILED), 413 a body over the cap, 502 a destination that
 * could not be reached ("dns", "network", "redirect"), 504 one that sent no headers in time
 * ("timeout"). The message is the sidecar's: it says what to change and carries no secrets.
 */
export class EgressRefusedError extends Error {
  override readonly name = "EgressRefusedError";
  readonly code: string;
  readonly status: number;
  constructor(code: string, status: number, message: string) {
    super(message);
    this.code = code;
    this.status = status;
  }
}
