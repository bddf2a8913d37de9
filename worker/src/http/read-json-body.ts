import { fail, ok, type Result } from "@edge-web/shared";
import type { Context } from "hono";
import { capBody } from "./cap-body.ts";

/** Request bodies here are small JSON documents; anything larger is refused, never buffered. */
export const MAX_JSON_BODY_BYTES = 1_048_576;

/**
 * Reads a JSON body. `invalidCode` differs by caller: tool calls answer with the tool contract's
 * INVALID_INPUT, the session protocol's own endpoints with INVALID_JSON.
 */
export async function readJsonBody(c: Context, invalidCode: "INVALID_INPUT" | "INVALID_JSON"): Promise<Result<unknown>> {
  const tooLarge = fail("PAYLOAD_TOO_LARGE", `The request body is over ${MAX_JSON_BODY_BYTES} bytes; send a smaller JSON body.`);
  if (Number(c.req.header("content-length") ?? "0") > MAX_JSON_BODY_BYTES) return tooLarge;
  let text = "";
  if (c.req.raw.body) {
    const capped = capBody(c.req.raw.body, MAX_JSON_BODY_BYTES);
    try {
      text = await new Response(capped.body).text();
    } catch {
      return capped.exceeded() ? tooLarge : fail(invalidCode, "The request body could not be read; send it again.");
    }
  }
  if (text.trim() === "") return ok({});
  try {
    return ok(JSON.parse(text));
  } catch {
    return fail(invalidCode, "The request body is not valid JSON; send a JSON object with Content-Type: application/json.");
  }
}
