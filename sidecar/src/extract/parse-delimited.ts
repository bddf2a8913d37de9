/**
 * RFC 4180 records: quoted fields may hold delimiters, doubled quotes and newlines; CRLF, LF and CR end records.
 * Lenient where files are sloppy: text after a closing quote is kept, an unclosed quote runs to the end, blank
 * lines are skipped. Linear: every character is looked at once.
 */
export function parseDelimited(text: string, delimiter: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let atFieldStart = true;
  const endRecord = (): void => {
    row.push(field);
    if (row.length > 1 || row[0] !== "") rows.push(row);
    row = [];
    field = "";
    atFieldStart = true;
  };
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '"' && atFieldStart) {
      let from = i + 1;
      for (;;) {
        const quote = text.indexOf('"', from);
        if (quote === -1) {
          field += text.slice(from);
          i = text.length;
          break;
        }
        field += text.slice(from, quote);
        if (text[quote + 1] === '"') {
          field += '"';
          from = quote + 2;
        } else {
          i = quote + 1;
          break;
        }
      }
      atFieldStart = false;
    } else if (ch === delimiter) {
      row.push(field);
      field = "";
      atFieldStart = true;
      i++;
    } else if (ch === "\n" || ch === "\r") {
      endRecord();
      i += ch === "\r" && text[i + 1] === "\n" ? 2 : 1;
    } else {
      // An unquoted run up to the next delimiter or line end.
      let end = i + 1;
      while (end < text.length && text[end] !== delimiter && text[end] !== "\n" && text[end] !== "\r") end++;
      field += text.slice(i, end);
      atFieldStart = false;
      i = end;
    }
  }
  if (field !== "" || row.length > 0) endRecord();
  return rows;
}
