import type { Validators } from "@edge-web/shared";

/** The request headers that make a fetch conditional on a copy's validators (RFC 9110 §13.1): a 304 says the copy is current. */
export function conditionalHeaders(validators: Validators | undefined): Record<string, string> {
  return {
    ...(validators?.etag && { "if-none-match": validators.etag }),
    ...(validators?.lastModified && { "if-modified-since": validators.lastModified }),
  };
}
