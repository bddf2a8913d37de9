/**
 * Which of `count` sidecar containers takes a call (0…count-1). Calls about one host go to one
 * instance, picked by a hash of the host name, so the sidecar's per-host limit and its robots.txt
 * cache hold for that host across the whole deployment; calls about no host (a search, a file's
 * conversion) take any instance, spreading the load.
 */
export function sidecarInstance(host: string | undefined, count: number, random: () => number = Math.random): number {
  if (count <= 1) return 0;
  if (!host) return Math.floor(random() * count) % count;
  // FNV-1a (32 bits): cheap, stable across isolates and deployments, and spreads short names well.
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(host.toLowerCase())) hash = Math.imul(hash ^ byte, 0x01000193);
  return (hash >>> 0) % count;
}
