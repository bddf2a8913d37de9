import { createHash } from "node:crypto";

/**
 * The third of each corpus kept aside for confirmation: pages whose id hashes (SHA-256) to a first byte
 * divisible by three. A fixed rule, so the split never depends on how the extractor does on a page.
 */
export function isHeldOut(id: string): boolean {
  return (createHash("sha256").update(id).digest()[0] ?? 0) % 3 === 0;
}
