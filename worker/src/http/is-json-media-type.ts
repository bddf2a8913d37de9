import { parseContentType } from "@edge-web/shared";

/** `application/json` or a `+json` type such as `application/merge-patch+json`, with any parameters (charset). */
export function isJsonMediaType(contentType: string | null | undefined): boolean {
  const type = parseContentType(contentType);
  return type?.type === "application" && /^(?:.+\+)?json$/.test(type.subtype);
}
