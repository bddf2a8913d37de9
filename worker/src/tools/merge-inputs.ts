/** One value and a list merged, trimmed, blanks dropped, duplicates removed (first wins). */
export function mergeInputs(single: string | undefined, many: readonly string[] | undefined): string[] {
  const all = [single, ...(many ?? [])].map((s) => s?.trim() ?? "").filter((s) => s !== "");
  return [...new Set(all)];
}
