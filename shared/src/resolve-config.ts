import * as v from "valibot";
import { mergePatch } from "./merge-patch.ts";
import { fail, ok, type Result } from "./result.ts";

/** Field paths of valibot issues, e.g. `cache.ttlMs`. */
export function issuePaths(issues: readonly v.BaseIssue<unknown>[]): string[] {
  return [...new Set(issues.map((issue) => v.getDotPath(issue) ?? "(root)"))];
}

/** "path: message; path: message" for valibot issues. */
export function describeIssues(issues: readonly v.BaseIssue<unknown>[]): string {
  return issues.map((i) => `${v.getDotPath(i) ?? "(root)"}: ${i.message}`).join("; ");
}

/** Layers of partial settings, lowest first (`null` resets a key), merged and validated by `schema`. */
export function resolveConfig<S extends v.GenericSchema>(schema: S, ...layers: unknown[]): Result<v.InferOutput<S>> {
  let merged: unknown = {};
  for (const layer of layers) merged = mergePatch(merged, layer);
  const parsed = v.safeParse(schema, merged);
  if (parsed.success) return ok(parsed.output);
  return fail("SCHEMA_VALIDATION_FAILED", describeIssues(parsed.issues), issuePaths(parsed.issues));
}
