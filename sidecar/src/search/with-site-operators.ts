import type { SearchQuery } from "./provider.ts";

/**
 * The query text with its domain filters as operators most engines read (Google, Bing, Brave,
 * DuckDuckGo): `site:a` or `(site:a OR site:b)` for the included, `-site:c` for each excluded.
 * Engines that ignore them are held to the filters afterwards all the same.
 */
export function withSiteOperators(query: SearchQuery): string {
  const { text, includeDomains, excludeDomains } = query;
  const include = includeDomains.map((domain) => `site:${domain}`);
  const parts = [text];
  if (include.length === 1) parts.push(include[0]!);
  else if (include.length > 1) parts.push(`(${include.join(" OR ")})`);
  for (const domain of excludeDomains) parts.push(`-site:${domain}`);
  return parts.join(" ");
}
