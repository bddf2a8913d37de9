/// <reference path="./types/whatwg-mimetype.d.ts" />
import { MIMEType } from "whatwg-mimetype";

/** A header's first value: repeated headers arrive joined with ", ", and a comma ends a value except inside a quoted string. */
const FIRST_VALUE = /^(?:"(?:[^"\\]|\\.)*"?|[^,"])*/;

/**
 * A Content-Type header as the WHATWG MIME Sniffing standard parses it (type and subtype lowercase,
 * parameter names lowercase, quoted values unquoted); undefined when there is none or it does not parse.
 * Of repeated headers, the first one counts.
 */
export function parseContentType(header: string | null | undefined): MIMEType | undefined {
  const first = header?.match(FIRST_VALUE)?.[0];
  return (first && MIMEType.parse(first)) || undefined;
}

/** A Content-Type's media type (its essence: "text/html"), lowercase and without parameters; "" when there is none. */
export function mediaType(header: string | null | undefined): string {
  return parseContentType(header)?.essence ?? "";
}
