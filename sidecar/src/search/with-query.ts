/** `base` with `params` set in its query string; an unparsable base passes through so the request fails as an invalid URL. */
export function withQuery(base: string, params: Record<string, string>): string {
  const url = URL.parse(base);
  if (!url) return base;
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url.href;
}
