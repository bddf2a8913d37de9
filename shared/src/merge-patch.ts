export type JsonObject = Record<string, unknown>;

export const isPlainObject = (x: unknown): x is JsonObject => typeof x === "object" && x !== null && !Array.isArray(x);

/**
 * Merges `patch` into `base` (RFC 7386 JSON merge patch): objects merge deeply, arrays and scalars
 * replace, and `null` removes the key, so the lower layer's value applies again. An absent patch
 * leaves `base` as it is.
 */
export function mergePatch(base: unknown, patch: unknown): unknown {
  if (patch === undefined) return base;
  if (!isPlainObject(patch)) return patch;
  const out: JsonObject = isPlainObject(base) ? { ...base } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}
