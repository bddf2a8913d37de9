/** `raw` parsed as a URL when it is one with an http(s) scheme, else undefined. */
export function parseHttpUrl(raw: string): URL | undefined {
  const parsed = URL.parse(raw);
  return parsed && (parsed.protocol === "http:" || parsed.protocol === "https:") ? parsed : undefined;
}
