import { fail, ok, type Result } from "@edge-web/shared";
import type { Context } from "hono";

/** Request bodies here are small JSON documents; anything larger is refused before parsing. */
export const MAX_JSON_BODY_BYTES = 1_048_576;

/**
 * Reads a JSON body. `invalidCode` differs by caller: tool calls answer with the tool contract's
 * INVALID_INPUT, the session protocol's own endpoints with INVALID_JSON.
 */
export async function readJsonBody(c: Context, invalidCode: "INVALID_INPUT" | "INVALID_JSON"): Promise<Result<unknown>> {
  const declared = Number(c.req.header("content-length") ?? "0");
  if (declared > MAX_JSON_BODY_BYTES) {
    return fail("PAYLOAD_TOO_LARGE", `The request body is over ${MAX_JSON_BODY_BYTES} bytes; send a smaller JSON body.`);
  }
  const text = await c.req.text();
  if (text.length > MAX_JSON_BODY_BYTES) {
    return fail("PAYLOAD_TOO_LARGE", `The request body is over ${MAX_JSON_BODY_BYTES} bytes; send a smaller JSON body.`);
  }
  if (text.trim() === "") return ok({});
  try {
    return ok(JSON.parse(text));
  } catch {
    return fail(invalidCode, "The request body is not valid JSON; send a JSON object with Content-Type: application/json.");
  }
}
