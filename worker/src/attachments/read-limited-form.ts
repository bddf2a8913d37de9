import { fail, ok, parseContentType, type Result } from "@edge-web/shared";
import { capBody } from "../cap-body.ts";

/** Room for boundaries and part headers on top of the file itself. */
export const MULTIPART_ALLOWANCE_BYTES = 65_536;

/**
 * Reads a multipart/form-data body of at most `maxFileBytes` plus the multipart allowance. A declared
 * Content-Length over that is refused before reading; a body without one, or lying about it, is cut
 * off (and its source cancelled) as soon as it passes the cap, so it is never buffered beyond it.
 */
export async function readLimitedForm(request: Request, maxFileBytes: number): Promise<Result<FormData>> {
  const cap = maxFileBytes + MULTIPART_ALLOWANCE_BYTES;
  const tooLarge = fail("PAYLOAD_TOO_LARGE", `The upload is over ${maxFileBytes} bytes; send a smaller file.`);
  const notMultipart = fail("NO_FILE", "Send the file as multipart/form-data in a field named \"file\".");
  if (Number(request.headers.get("content-length") ?? 0) > cap) return tooLarge;
  const contentType = request.headers.get("content-type") ?? "";
  const type = parseContentType(contentType);
  if (type?.essence !== "multipart/form-data" || !type.parameters.has("boundary") || !request.body) return notMultipart;

  const capped = capBody(request.body, cap);
  try {
    return ok(await new Response(capped.body, { headers: { "content-type": contentType } }).formData());
  } catch {
    return capped.exceeded() ? tooLarge : notMultipart;
  }
}
