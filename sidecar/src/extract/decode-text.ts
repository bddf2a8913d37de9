import { bomEncoding } from "./bom.ts";
import type { ContentKind } from "./content-kind.ts";

/** Kinds whose formats define UTF-8 as the only unlabeled encoding (JSON: RFC 8259; XML and YAML: their specs). */
const UTF8_BY_SPEC = new Set<ContentKind>(["json", "xml", "yaml"]);

/** How many bytes an HTML decoder looks at for <meta charset> (the HTML prescan limit). */
const PRESCAN_BYTES = 1024;

/** The canonical name of a WHATWG encoding label, or undefined for unknown or unsupported labels. */
function encodingOf(label: string | undefined): string | undefined {
  if (!label) return undefined;
  try {
    return new TextDecoder(label).encoding;
  } catch {
    return undefined;
  }
}

/** A label found inside the document: it was readable as ASCII, so it cannot really be UTF-16 (the HTML rule). */
function inDocumentEncoding(label: string | undefined): string | undefined {
  const encoding = encodingOf(label);
  return encoding === "utf-16le" || encoding === "utf-16be" ? "utf-8" : encoding;
}

function charsetParameter(contentType: string | undefined): string | undefined {
  // Commas end the value too: repeated headers arrive joined with ", ".
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;,\s]*))/i.exec(contentType ?? "");
  return (match?.[1] ?? match?.[2])?.trim() || undefined;
}

function asciiPrefix(bytes: Uint8Array): string {
  return new TextDecoder("windows-1252").decode(bytes.subarray(0, PRESCAN_BYTES));
}

/** <meta charset=…> or <meta http-equiv="Content-Type" content="…; charset=…"> in the first 1024 bytes, outside comments. */
function metaCharset(bytes: Uint8Array): string | undefined {
  let head = asciiPrefix(bytes);
  for (let start = head.indexOf("<!--"); start !== -1; start = head.indexOf("<!--", start)) {
    const end = head.indexOf("-->", start + 4);
    head = head.slice(0, start) + (end === -1 ? "" : head.slice(end + 3));
  }
  for (const [tag] of head.matchAll(/<meta[\s/][^>]*>/gi)) {
    const attributes = new Map<string, string>();
    for (const [, name, ...values] of tag.slice(5).matchAll(/([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g)) {
      // As in HTML, the first of repeated attributes counts.
      if (name !== undefined && !attributes.has(name.toLowerCase())) {
        attributes.set(name.toLowerCase(), values.find((value) => value !== undefined) ?? "");
      }
    }
    const charset = attributes.get("charset");
    const pragma = attributes.get("http-equiv")?.trim().toLowerCase() === "content-type" ? attributes.get("content") : undefined;
    const label = charset ?? (pragma !== undefined ? /charset\s*=\s*["']?([^"'\s;]+)/i.exec(pragma)?.[1] : undefined);
    const encoding = inDocumentEncoding(label);
    if (encoding) return encoding;
  }
  return undefined;
}

/** The encoding in an <?xml … encoding="…"?> declaration at the very start. */
function xmlDeclarationEncoding(bytes: Uint8Array): string | undefined {
  const head = asciiPrefix(bytes);
  if (!head.startsWith("<?xml")) return undefined;
  const end = head.indexOf("?>");
  const declaration = end === -1 ? head : head.slice(0, end);
  return inDocumentEncoding(/\sencoding\s*=\s*["']([^"']*)["']/.exec(declaration)?.[1]);
}

/**
 * Unlabeled bytes: UTF-8 when valid, else windows-1252 (the web's legacy default). A body that is valid
 * except for an incomplete last character was probably cut at the byte cap, so it stays UTF-8 when the
 * text before it already has non-ASCII UTF-8 to prove the encoding.
 */
function decodeUnlabeled(bytes: Uint8Array): { text: string; charset: string } {
  try {
    return { text: new TextDecoder("utf-8", { fatal: true }).decode(bytes), charset: "utf-8" };
  } catch {
    // fall through to the truncation check
  }
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes, { stream: true });
    if (/[^\x00-\x7f]/.test(text)) return { text, charset: "utf-8" };
  } catch {
    // invalid before the end: not UTF-8
  }
  return { text: new TextDecoder("windows-1252").decode(bytes), charset: "windows-1252" };
}

/**
 * Decodes a response body. The encoding comes from, in order: a byte order mark, the Content-Type charset,
 * <meta> (HTML) or the XML declaration (XML), else UTF-8, with a windows-1252 fallback for unlabeled bytes
 * that are not UTF-8 (except for kinds that are UTF-8 by definition). The BOM is removed. Labelled text is
 * decoded in streaming mode, so a character cut off by the byte cap is dropped rather than becoming U+FFFD.
 */
export function decodeText(bytes: Uint8Array, contentType: string | undefined, kind: ContentKind): { text: string; charset: string } {
  const declared =
    bomEncoding(bytes) ??
    encodingOf(charsetParameter(contentType)) ??
    (kind === "html" ? metaCharset(bytes) : kind === "xml" ? xmlDeclarationEncoding(bytes) : undefined) ??
    (UTF8_BY_SPEC.has(kind) ? "utf-8" : undefined);
  if (!declared) return decodeUnlabeled(bytes);
  return { text: new TextDecoder(declared).decode(bytes, { stream: true }), charset: declared };
}
