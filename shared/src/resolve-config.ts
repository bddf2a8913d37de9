import * as v from "valibot";
import { mergePatch } from "./merge-patch.ts";
import { fail, ok, type Result } from "./result.ts";
import { summarizeIssues } from "./summarize-issues.ts";

/** Layers of partial settings, lowest first (`null` resets a key), merged and validated by `schema`. */
export function resolveConfig<S extends v.GenericSchema>(schema: S, ...layers: unknown[]): Result<v.InferOutput<S>> {
  let merged: unknown = {};
  for (const layer of layers) merged = mergePatch(merged, layer);
  const parsed = v.safeParse(schema, merged);
  if (parsed.success) return ok(parsed.output);
  const { text, fields } = summarizeIssues(parsed.issues);
  return fail("SCHEMA_VALIDATION_FAILED", text, fields);
}
