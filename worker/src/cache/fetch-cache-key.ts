import { fetchOptionsFrom, PageOptionsSchema, parseHttpUrl, type FetchOptions, type PageOptions, type WebConfig } from "@edge-web/shared";
import * as v from "valibot";

/** The fetch settings that bound how a fetch runs, not what it makes of the page: the only ones left out of the key. */
const NOT_IN_KEY = ["timeoutMs", "jinaTimeoutMs", "connectionPool", "debug"] as const satisfies readonly (keyof FetchOptions)[];

/** Every page option the sidecar is sent, its defaults filled in; one not (yet) in PageOptionsSchema is kept as given. */
const PageKeySchema = v.looseObject(PageOptionsSchema.entries);

/**
 * The KV key of a page: its http(s) URL as URL parsing normalises it (scheme and host lower-cased,
 * default port, dot segments, percent-encoding), without a user name or password (never sent, and
 * not shown in the answer's `url`) but with its fragment (which that `url` shows); every page
 * option the sidecar is sent (an option left out and the same option at its default are one
 * page); and every fetch setting but NOT_IN_KEY — the network policy among them, so a copy is
 * answered only where the policy it was fetched under still applies. Hashed, to stay within KV's
 * key length. Undefined for a URL that is not http(s): the sidecar answers it.
 */
export async function fetchCacheKey(url: string, page: PageOptions, config: WebConfig): Promise<string | undefined> {
  const parsed = parseHttpUrl(url);
  if (!parsed) return undefined;
  parsed.username = "";
  parsed.password = "";
  const options: Partial<FetchOptions> = fetchOptionsFrom(config);
  for (const name of NOT_IN_KEY) delete options[name];
  const material = JSON.stringify([parsed.href, sortedEntries(v.parse(PageKeySchema, page)), sortedEntries(options)]);
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(material));
  const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `fetch:v1:${hex}`;
}

/** The same options in any order make the same key. */
const sortedEntries = (record: object) => Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
