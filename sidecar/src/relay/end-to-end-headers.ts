/** Hop-by-hop fields (RFC 9110 §7.6.1, plus the legacy ones): they describe one connection, so a relay never passes them on. */
const HOP_BY_HOP = ["connection", "keep-alive", "proxy-connection", "proxy-authenticate", "proxy-authorization", "te", "trailer", "transfer-encoding", "upgrade"];

/**
 * The fields worth passing on, names lower-cased: no hop-by-hop field, none the Connection field
 * names, none in `dropped` (what the relay sets or changes itself).
 */
export function endToEndHeaders<V extends string | string[]>(headers: Record<string, V | undefined>, dropped: readonly string[]): Record<string, V> {
  const lower = Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value] as const);
  const named = lower.filter(([name]) => name === "connection").flatMap(([, value]) => [value ?? []].flat().join(",").split(","));
  const skip = new Set([...HOP_BY_HOP, ...dropped, ...named.map((token) => token.trim().toLowerCase())]);
  const kept: Record<string, V> = {};
  for (const [name, value] of lower) if (value !== undefined && !skip.has(name)) kept[name] = value;
  return kept;
}
