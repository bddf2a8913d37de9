/** Whitespace normalisation shared by the handlers. */

/** CRLF and lone CR become LF, so handlers only ever see "\n". */
export function normalizeNewlines(text: string): string {
  return text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text;
}

/** Runs of HTML whitespace (no-break spaces included) as one space: how browsers show inline text. */
export function collapseSpaces(text: string): string {
  return text.replace(/[ \t\n\r\f\u00a0]+/g, " ");
}

/** Collapsed and trimmed: text that must fit on one line (titles, headings, alt text). */
export function oneLine(text: string): string {
  return collapseSpaces(text).trim();
}
