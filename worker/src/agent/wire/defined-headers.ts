/** A call's own headers that have a value (the AI SDK lets a caller set one to undefined). */
export function definedHeaders(headers: Record<string, string | undefined> | undefined): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) if (value !== undefined) kept[name] = value;
  return kept;
}
