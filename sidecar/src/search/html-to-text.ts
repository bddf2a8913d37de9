import { Parser } from "htmlparser2";

/** The text of an HTML fragment: tags dropped, entities decoded. Non-strings give "". */
export function htmlToText(html: unknown): string {
  if (typeof html !== "string") return "";
  let text = "";
  const parser = new Parser({ ontext: (chunk) => (text += chunk) }, { decodeEntities: true });
  parser.end(html);
  return text;
}
