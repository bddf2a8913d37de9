import { deadlineIn, fail, type ConvertLimits } from "@edge-web/shared";
import type { SidecarDeps } from "../sidecar-deps.ts";
import { convertBytes, type ConvertAnswer } from "./convert-bytes.ts";

/** An uploaded file's bytes, converted on a converter thread. */
export async function convertFile(
  bytes: Uint8Array,
  req: { source: string; fileName?: string; contentType?: string; limits: ConvertLimits; budgetMs?: number },
  deps: SidecarDeps,
  signal?: AbortSignal,
): Promise<ConvertAnswer> {
  const deadline = deadlineIn(req.budgetMs ?? req.limits.timeoutMs);
  if (bytes.length > req.limits.maxResponseBytes) {
    return fail("FILE_TOO_LARGE", `The file is larger than ${req.limits.maxResponseBytes} bytes (convert.maxResponseBytes); convert a smaller document.`);
  }
  const hints = { ...(req.fileName && { fileName: req.fileName }), ...(req.contentType && { contentType: req.contentType }) };
  return convertBytes(req.source, bytes, hints, req.limits, deadline, deps, signal);
}
