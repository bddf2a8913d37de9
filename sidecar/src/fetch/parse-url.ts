import type { EgressResult } from "./egress-types.ts";
import { fail } from "@edge-web/shared";

const ACCEPTED = "Pass an absolute http:// or https:// URL, for example https://example.com/page.";

/** Parses a caller's URL with the WHATWG parser (which also normalises numeric IPv4 forms); no DNS. */
export function parseUrl(raw: string): EgressResult<URL> {
  const url = URL.parse(raw.trim());
  // The raw text is not echoed: it may carry credentials.
  if (!url) return fail("invalid-url", `The URL could not be parsed. ${ACCEPTED}`);
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return fail("invalid-url", `The URL scheme "${url.protocol}" is not supported. ${ACCEPTED}`);
  }
  return { ok: true, value: url };
}
