import type { PageCaching } from "@edge-web/shared";

/**
 * What an origin's answer says about keeping the page: its Cache-Control, and its validators when
 * `validatorsApply` (they describe the bytes served, so not a page a browser rendered or the reader
 * service read).
 */
export function pageCaching(headers: Record<string, string>, validatorsApply: boolean): PageCaching {
  const { etag, "last-modified": lastModified, "cache-control": cacheControl } = headers;
  const validators = validatorsApply && (etag || lastModified) ? { ...(etag && { etag }), ...(lastModified && { lastModified }) } : undefined;
  return { ...(validators && { validators }), ...(cacheControl && { cacheControl }) };
}
