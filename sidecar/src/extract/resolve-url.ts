const UNSAFE_PROTOCOLS = new Set(["javascript:", "vbscript:", "data:"]);

/**
 * An absolute URL for a link or image target, or undefined when there is nothing useful to link to
 * (script and data URLs, empty or "#" hrefs, unparseable values). Parentheses are percent-encoded
 * so the URL cannot end a Markdown link early.
 */
export function resolveUrl(raw: string, base: string): string | undefined {
  const value = raw.trim();
  if (value === "" || value === "#") return undefined;
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return undefined;
  }
  // Checked after parsing: the URL parser drops tabs and newlines, so "java\tscript:" is javascript: too.
  if (UNSAFE_PROTOCOLS.has(url.protocol)) return undefined;
  return url.href.replace(/\(/g, "%28").replace(/\)/g, "%29");
}
