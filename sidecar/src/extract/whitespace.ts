/** Whitespace normalisation shared by the handlers. */

/** CRLF and lone CR become LF, so handlers only ever see "\n". */
export function normalizeNewlines(text: string): string {
  return text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text;
}

/** Runs of HTML whitespace (no-break spaces included) as one space: how browsers show inline text. */
export function collapseSpaces(text: string): string {
  // Most strings read have only single spaces: they are returned as they are, without a copy (2 % of an extraction).
  return COLLAPSIBLE.test(text) ? text.replace(SPACE_RUNS, " ") : text;
}
const SPACE_RUNS = /[ \t\n\r\f\u00a0]+/g;
/** Whitespace that is not a lone space. */
const COLLAPSIBLE = /[\t\n\r\f\u00a0]| {2}/;

/** Collapsed and trimmed: text that must fit on one line (titles, headings, alt text). */
export function oneLine(text: string): string {
  return collapseSpaces(text).trim();
}

/** Whether a character code is HTML whitespace or a no-break space: what separates words on the page. */
export function isHtmlSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d || code === 0x0c || code === 0xa0;
}

/** Whether text is only HTML whitespace (or empty). */
export function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (!isHtmlSpace(text.charCodeAt(i))) return false;
  return true;
}
