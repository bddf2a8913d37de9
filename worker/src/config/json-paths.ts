import { isPlainObject, type JsonObject } from "@edge-web/shared";
import type * as v from "valibot";
import { objectEntries, recordValue } from "./form-schema.ts";

/** Dot paths of keys in `value` that `schema` does not know, e.g. ["cache.ttl"]. Only plain objects are walked. */
export function unknownKeyPaths(schema: v.GenericSchema, value: unknown, prefix = ""): string[] {
  if (!isPlainObject(value)) return [];
  const values = recordValue(schema);
  if (values) return Object.entries(value).flatMap(([key, inner]) => unknownKeyPaths(values, inner, `${prefix}${key}.`));
  const entries = objectEntries(schema);
  if (!entries) return [];
  return Object.entries(value).flatMap(([key, inner]) => {
    const entry = Object.hasOwn(entries, key) ? entries[key] : undefined;
    return entry ? unknownKeyPaths(entry, inner, `${prefix}${key}.`) : [`${prefix}${key}`];
  });
}

/** The value at a dot path, or undefined. */
export function getPath(value: unknown, path: string): unknown {
  let current = value;
  for (const key of path.split(".")) {
    if (!isPlainObject(current) || !Object.hasOwn(current, key)) return undefined;
    current = current[key];
  }
  return current;
}

/** A copy of `value` with the key at `path` removed (parents are kept). */
export function withoutPath(value: JsonObject, path: string): JsonObject {
  const [head, ...rest] = path.split(".");
  if (head === undefined || !Object.hasOwn(value, head)) return value;
  const out = { ...value };
  const child = out[head];
  if (rest.length === 0) delete out[head];
  else if (isPlainObject(child)) out[head] = withoutPath(child, rest.join("."));
  return out;
}

/** A copy of `value` with `path` set, creating parent objects as needed. */
export function withPath(value: JsonObject, path: string, leaf: unknown): JsonObject {
  const [head, ...rest] = path.split(".");
  if (head === undefined) return value;
  const child = value[head];
  return { ...value, [head]: rest.length === 0 ? leaf : withPath(isPlainObject(child) ? child : {}, rest.join("."), leaf) };
}

/** The concrete dot paths a pattern names in `value`, `*` matching every key of an object there. */
export function expandPath(value: unknown, pattern: string): string[] {
  const [head, ...rest] = pattern.split(".");
  if (head === undefined) return [];
  if (rest.length === 0) return head === "*" ? (isPlainObject(value) ? Object.keys(value) : []) : [head];
  const keys = head === "*" ? (isPlainObject(value) ? Object.keys(value) : []) : [head];
  return keys.flatMap((key) => expandPath(isPlainObject(value) ? value[key] : undefined, rest.join(".")).map((tail) => `${key}.${tail}`));
}
