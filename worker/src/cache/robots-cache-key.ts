import { parseHttpUrl } from "@edge-web/shared";

/** KV's longest key, in bytes. */
const KV_MAX_KEY_BYTES = 512;

/**
 * The KV key of an http(s) URL's origin's robots.txt record: the origin as URL parsing writes it
 * (readable for an operator looking at KV). Undefined for a URL that is not http(s), or an origin
 * too long for a key (none that DNS names): the sidecar reads those itself.
 */
export function robotsCacheKey(url: string): string | undefined {
  const parsed = parseHttpUrl(url);
  if (!parsed) return undefined;
  const key = `robots:v1:${parsed.origin}`;
  return new TextEncoder().encode(key).byteLength <= KV_MAX_KEY_BYTES ? key : undefined;
}
