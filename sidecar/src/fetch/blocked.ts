import { fail } from "@edge-web/shared";

/**
 * A policy refusal. Only the origin is printed: it never carries userinfo, and paths or queries
 * may hold tokens.
 */
export function blocked(url: URL, detail: string, exemptHint = DEFAULT_EXEMPT_HINT) {
  return fail("blocked", `The URL ${url.origin} was blocked by the network policy (private or local address: ${detail}). ${exemptHint}`);
}

const DEFAULT_EXEMPT_HINT = "Set web.allowPrivateNetwork to true or add the host to web.allowHosts to permit it.";
