import { latin1Prefix } from "../sniff/latin1-prefix.ts";
import { bomEncoding } from "./bom.ts";
import type { ContentKind } from "./content-kind.ts";
import { detectCharset } from "./detect-charset.ts";

/** Kinds whose formats define UTF-8 as the only unlabeled encoding (JSON: RFC 8259; XML and YAML: their specs). */
const UTF8_BY_SPEC = new Set<ContentKind>(["json", "xml", "yaml"]);

/** How many bytes an HTML decoder looks at for <meta charset> before parsing (the HTML prescan limit). */
const PRESCAN_BYTES = 1024;
/**
 * Past the prescan, a browser still changes encoding when its parser meets a <meta charset> in the head (the
 * encoding was only tentative); a head longer than this is not looked through.
 */
const HEAD_SCAN_BYTES = 256 * 1024;

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

/** Markup without comments, and without the text of elements whose content is not markup (scripts, styles). */
function markupOnly(markup: string): string {
  return markup.replace(/<!--[\s\S]*?(?:-->|$)/g, "").replace(/<(script|style|title|textarea|noscript|template)\b[^>]*>[\s\S]*?(?:<\/\1\s*>|$)/gi, "");
}

/** <meta charset=…> or <meta http-equiv="Content-Type" content="…; charset=…"> in markup. */
function metaCharset(markup: string): string | undefined {
  for (const [tag] of markup.matchAll(/<meta[\s/][^>]*>/gi)) {
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
  const head = latin1Prefix(bytes, PRESCAN_BYTES);
  if (!head.startsWith("<?xml")) return undefined;
  const end = head.indexOf("?>");
  const declaration = end === -1 ? head : head.slice(0, end);
  return inDocumentEncoding(/\sencoding\s*=\s*["']([^"']*)["']/.exec(declaration)?.[1]);
}

/** A <meta> charset as a browser finds it: in the first 1024 bytes, else anywhere in the head (before <body>). */
function htmlDeclaredEncoding(bytes: Uint8Array): string | undefined {
  const prescanned = metaCharset(markupOnly(latin1Prefix(bytes, PRESCAN_BYTES)));
  if (prescanned || bytes.length <= PRESCAN_BYTES) return prescanned;
  const markup = markupOnly(latin1Prefix(bytes, HEAD_SCAN_BYTES));
  const body = markup.search(/<body[\s>/]/i);
  return metaCharset(body === -1 ? markup : markup.slice(0, body));
}

/**
 * Unlabeled bytes: UTF-8 when valid, else the legacy encoding the text itself points to (detectCharset;
 * windows-1252, the web's legacy default, for text that points nowhere). A body that is valid except for an
 * incomplete last character was probably cut at the byte cap, so it stays UTF-8 when the text before it
 * already has non-ASCII UTF-8 to prove the encoding.
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
  const charset = detectCharset(bytes);
  return { text: new TextDecoder(charset).decode(bytes, { stream: true }), charset };
}

/**
 * Decodes a response body. The encoding comes from, in order: a byte order mark, the Content-Type charset,
 * <meta> (HTML) or the XML declaration (XML), else UTF-8, with the detected legacy encoding for unlabeled
 * bytes that are not UTF-8 (except for kinds that are UTF-8 by definition). The BOM is removed. Labelled text is
 * decoded in streaming mode, so a character cut off by the byte cap is dropped rather than becoming U+FFFD.
 */
export function decodeText(bytes: Uint8Array, contentType: string | undefined, kind: ContentKind): { text: string; charset: string } {
  const declared =
    bomEncoding(bytes) ??
    encodingOf(charsetParameter(contentType)) ??
    (kind === "html" ? htmlDeclaredEncoding(bytes) : kind === "xml" ? xmlDeclarationEncoding(bytes) : undefined) ??
    (UTF8_BY_SPEC.has(kind) ? "utf-8" : undefined);
  if (!declared) return decodeUnlabeled(bytes);
  return { text: new TextDecoder(declared).decode(bytes, { stream: true }), charset: declared };
}
