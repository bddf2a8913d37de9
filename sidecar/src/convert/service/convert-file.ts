import { deadlineIn, type ConvertLimits, type SidecarConvertAnswer } from "@edge-web/shared";
import { convertBytes } from "./convert-bytes.ts";
import type { ConvertPool } from "./convert-pool.ts";

/** An uploaded file's bytes, converted on a converter thread. */
export async function convertFile(
  bytes: Uint8Array,
  req: { source: string; fileName?: string; contentType?: string; limits: ConvertLimits; budgetMs?: number },
  deps: { converter: ConvertPool },
  signal?: AbortSignal,
): Promise<SidecarConvertAnswer> {
  // The route read at most limits.maxResponseBytes of the body (413 beyond).
  const deadline = deadlineIn(req.budgetMs ?? req.limits.timeoutMs);
  const hints = { ...(req.fileName && { fileName: req.fileName }), ...(req.contentType && { contentType: req.contentType }) };
  return convertBytes(req.source, bytes, hints, req.limits, deadline, deps, signal);
}
