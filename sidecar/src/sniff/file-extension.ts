/** The lowercase extension of a file name (of its last "/" segment), without the dot; "" when there is none (".bashrc" has none). */
export function fileExtension(name: string): string {
  const base = name.split("/").pop() ?? "";
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : "";
}
