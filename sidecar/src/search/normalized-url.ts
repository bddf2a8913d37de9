import { withoutTrailing } from "@edge-web/shared";

/**
 * What makes two providers' URLs the same page when their results are merged: the host without
 * "www.", the path without trailing slashes, the query as written; the scheme and the fragment do
 * not count. An unparsable URL is itself.
 */
export function normalizedUrl(url: string): string {
  const parsed = URL.parse(url);
  if (!parsed) return url;
  const host = parsed.host.replace(/^www\./, "");
  return `${host}${withoutTrailing(parsed.pathname, "/")}${parsed.search}`;
}
