/**
 * An element's or attribute's name without its prefix. Office XML keeps the usual prefixes (w:, a:, table:)
 * but nothing requires them, and some writers choose their own, so lookups go by local name.
 */
export function localName(name: string): string {
  return name.slice(name.indexOf(":") + 1);
}
