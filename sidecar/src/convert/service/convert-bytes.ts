import { ok, type ConvertLimits, type Deadline, type SidecarConvertAnswer } from "@edge-web/shared";
import type { ConvertPool } from "./convert-pool.ts";
import type { DocumentHints } from "./detect-document.ts";

/** A document's bytes on a converter thread, answered in convert_content's shape. */
export async function convertBytes(
  source: string,
  bytes: Uint8Array,
  hints: DocumentHints,
  limits: ConvertLimits,
  deadline: Deadline,
  deps: { converter: ConvertPool },
  signal?: AbortSignal,
): Promise<SidecarConvertAnswer> {
  const started = Date.now();
  const fileSize = bytes.length;
  const { maxContentChars, maxPages, maxRows, maxUnzippedBytes, pages, images, comments } = limits;
  const options = {
    maxContentChars,
    maxPages,
    maxRows,
    maxUnzippedBytes,
    deadlineMs: Date.now() + deadline.remainingMs(),
    ...(pages !== undefined && { pages }),
    ...(images !== undefined && { images }),
    ...(comments !== undefined && { comments }),
  };
  const outcome = await deps.converter.run({ bytes, hints, options }, signal);
  if (!outcome.ok) return outcome;
  const document = outcome.value;
  return {
    ...ok({
      source,
      provider: document.provider,
      content: document.content,
      truncated: document.truncated,
      metadata: {
        contentType: document.contentType,
        ...(hints.fileName && { fileName: hints.fileName }),
        fileSize,
        durationMs: Date.now() - started,
        ...(document.title && { title: document.title }),
        ...(document.pages && { pages: document.pages }),
      },
    }),
    bytes: fileSize,
  };
}
