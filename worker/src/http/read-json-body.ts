import { fail, ok, type Result } from "@edge-web/shared";
import type { Context } from "hono";
import { capBody } from "../cap-body.ts";
import { isJsonMediaType } from "./is-json-media-type.ts";

/** Request bodies here are small JSON documents; anything larger is refused, never buffered. */
export const MAX_JSON_BODY_BYTES = 1_048_576;
/**
 * Deeper bodies are refused: the service's own documents nest a few levels, and a body of 100,000 nested objects,
 * which JSON.parse reads, overflowed the stack of what walks a value whole (a 500 where the caller erred).
 */
export const MAX_JSON_DEPTH = 128;

/** How deep the JSON text's arrays and objects nest, counted in one pass that skips strings. */
function nesting(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c) i++;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (code === 0x5d || code === 0x7d) depth--;
  }
  return deepest;
}

/**
 * Reads a JSON body, cut off as soon as it passes the limit. `invalidCode` differs by caller: tool
 * calls answer with the tool contract's INVALID_INPUT, the session protocol's own endpoints with
 * INVALID_JSON. A body that is not sent as JSON is refused (415), so a page of another site cannot
 * post one as a simple request (text/plain, forms) that skips the browser's preflight; an empty
 * body needs no type and reads as `{}`. Decoding drops a leading UTF-8 BOM, as JSON clients expect.
 */
export async function readJsonBody(c: Context, invalidCode: "INVALID_INPUT" | "INVALID_JSON"): Promise<Result<unknown>> {
  const tooLarge = fail("PAYLOAD_TOO_LARGE", `The request body is over ${MAX_JSON_BODY_BYTES} bytes; send a smaller JSON body.`);
  if (Number(c.req.header("content-length") ?? "0") > MAX_JSON_BODY_BYTES) return tooLarge;
  let text = "";
  if (c.req.raw.body && c.req.header("content-length") !== undefined) {
    // A declared length is what the runtime delivers, no more: nothing to count while reading.
    try {
      text = await c.req.raw.text();
    } catch {
      return fail(invalidCode, "The request body could not be read; send it again.");
    }
  } else if (c.req.raw.body) {
    const capped = capBody(c.req.raw.body, MAX_JSON_BODY_BYTES);
    try {
      text = await new Response(capped.body).text();
    } catch {
      return capped.exceeded() ? tooLarge : fail(invalidCode, "The request body could not be read; send it again.");
    }
  }
  if (text.trim() === "") return ok({});
  const type = c.req.header("content-type");
  if (!isJsonMediaType(type)) {
    return fail("UNSUPPORTED_MEDIA_TYPE", `The body was sent as ${type ? `"${type.slice(0, 100)}"` : "no content type"}; send JSON with Content-Type: application/json.`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return fail(invalidCode, "The request body is not valid JSON; send a JSON object with Content-Type: application/json.");
  }
  if (nesting(text) > MAX_JSON_DEPTH) return fail(invalidCode, `The request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep; send flatter JSON.`);
  return ok(value);
}
