/** `application/json` or a `+json` type such as `application/merge-patch+json`, with any parameters (charset). */
export function isJsonMediaType(contentType: string | null | undefined): boolean {
  const essence = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  return essence === "application/json" || /^application\/[a-z0-9!#$&^_.-]+\+json$/.test(essence);
}
