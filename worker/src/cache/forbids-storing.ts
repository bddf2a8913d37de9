/**
 * Whether an origin's Cache-Control keeps a shared cache from storing the page: `no-store`, or
 * `private` (in either form: the fetch cache is shared by every session).
 */
export function forbidsStoring(cacheControl: string | undefined): boolean {
  return (cacheControl ?? "").split(",").some((directive) => /^\s*(no-store|private)\s*(=|$)/i.test(directive));
}
