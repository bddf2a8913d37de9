/** A part name relative to another part's folder, with "." and ".." resolved (a leading "/" starts from the package's root). */
export function resolvePart(from: string, target: string): string {
  const segments = target.startsWith("/") ? [] : from.split("/").slice(0, -1);
  for (const segment of target.split("/")) {
    if (segment === "..") segments.pop();
    else if (segment !== "." && segment !== "") segments.push(segment);
  }
  return segments.join("/");
}
