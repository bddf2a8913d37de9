import { fail, ok, summarizeIssues, type Result } from "@edge-web/shared";
import * as v from "valibot";

/** Validates at the boundary; failures name every offending field path. */
export function validate<S extends v.GenericSchema>(
  schema: S,
  input: unknown,
  code: "INVALID_INPUT" | "VALIDATION_FAILED",
): Result<v.InferOutput<S>> {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return fail(code, "The request body must be a JSON object.");
  }
  const parsed = v.safeParse(schema, input);
  if (parsed.success) return ok(parsed.output);
  const { text, fields } = summarizeIssues(parsed.issues);
  return fail(code, `Invalid request: ${text}`, fields);
}
