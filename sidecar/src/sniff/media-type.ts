/** A Content-Type's media type, lowercase and without parameters; "" when there is none. Repeated headers arrive joined with ", ": the first one counts. */
export function mediaType(contentType: string | undefined): string {
  return contentType?.split(/[;,]/)[0]?.trim().toLowerCase() ?? "";
}
