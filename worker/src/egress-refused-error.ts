/** The sidecar's relay refused or could not send a request: the policy's refusal (403), the destination unreachable (502), or silent (504). */
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
