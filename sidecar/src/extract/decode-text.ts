/// <reference path="../types/html-encoding-sniffer.d.ts" />
import { isAscii } from "node:buffer";
import { parseContentType } from "@edge-web/shared";
import sniffEncoding from "html-encoding-sniffer";
import { Parser } from "htmlparser2";
import { latin1Prefix } from "../sniff/latin1-prefix.ts";
import { bomEncoding } from "./bom.ts";
import type { ContentKind } from "./content-kind.ts";
import { detectCharset } from "./detect-charset.ts";

/** Kinds whose formats define UTF-8 as the only unlabeled encoding (JSON: RFC 8259; XML and YAML: their specs). */
const UTF8_BY_SPEC = new Set<ContentKind>(["json", "xml", "yaml"]);

/** How many bytes the HTML prescan looks at for <meta> (the spec's limit, and the sniffer's). */
const PRESCAN_BYTES = 1024;
/**
 * Past the prescan, a browser still changes encoding when its parser meets a <meta charset> in the head (the
 * encoding was only tentative); a head longer than this is not looked through.
 */
const HEAD_SCAN_BYTES = 256 * 1024;

/** What the sniffer answers when nothing declared an encoding: the default is ours to choose (decodeUnlabeled). */
const UNDECLARED = "";

/** The canonical name of a WHATWG encoding label, or undefined for unknown or unsupported labels (the replacement encoding). */
function encodingOf(label: string | undefined): string | undefined {
  if (!label) return undefined;
  try {
    return new TextDecoder(label).encoding;
  } catch {
    return undefined;
  }
}

/** Elements in the head whose content is never parsed as tags by a browser that runs scripts (or ever, for a template's). */
const INERT_IN_HEAD = new Set(["noscript", "template"]);

/**
 * A <meta> in the head past the prescan, as a browser's parser meets it (script, style and title text are not
 * markup; htmlparser2 reads them as text). Each tag goes through the prescan on its own bytes, which reads one
 * <meta> as the parser does: charset, else http-equiv=Content-Type with a content naming a charset.
 */
function headMetaEncoding(bytes: Uint8Array): string | undefined {
  if (bytes.length <= PRESCAN_BYTES) return undefined;
  let found: string | undefined;
  let inert = 0;
  const parser = new Parser({
    onopentag(name) {
      if (name === "body") return parser.pause();
      if (INERT_IN_HEAD.has(name)) inert++;
      else if (name === "meta" && inert === 0) {
        // One character per byte, so the parser's offsets are the tag's bytes.
        found = encodingOf(sniffEncoding(bytes.subarray(parser.startIndex, parser.endIndex + 1), { defaultEncoding: UNDECLARED }));
        if (found) parser.pause();
      }
    },
    onclosetag(name) {
      if (INERT_IN_HEAD.has(name) && inert > 0) inert--;
    },
  });
  parser.write(latin1Prefix(bytes, HEAD_SCAN_BYTES));
  return found;
}

/** HTML's own declaration: the spec's sniffing (BOM, the transport charset, the prescan), then a <meta> later in the head. */
function htmlEncoding(bytes: Uint8Array, transport: string | undefined): string | undefined {
  const sniffed = sniffEncoding(bytes, { defaultEncoding: UNDECLARED, ...(transport && { transportLayerEncodingLabel: transport }) });
  return encodingOf(sniffed) ?? headMetaEncoding(bytes);
}

/** Encodings whose text can be valid UTF-8 by chance: UTF-16's code units of some scripts are UTF-8 sequences. */
const UTF16 = new Set(["utf-16le", "utf-16be"]);

/**
 * The text of bytes that are UTF-8 with characters beyond ASCII, a last character cut off by the byte cap dropped;
 * undefined for other bytes. Text in a legacy encoding is practically never valid UTF-8 once it has a character
 * beyond ASCII (an accented letter would have to be followed by exactly the right symbols), so this proves UTF-8.
 */
function provenUtf8(bytes: Uint8Array): string | undefined {
  // ASCII proves nothing: most labelled pages are, and are not decoded twice for it.
  if (isAscii(bytes)) return undefined;
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes, { stream: true });
    return /[^\x00-\x7f]/.test(text) ? text : undefined;
  } catch {
    return undefined; // invalid before the end: not UTF-8
  }
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
  const text = provenUtf8(bytes);
  if (text !== undefined) return { text, charset: "utf-8" };
  const charset = detectCharset(bytes);
  return { text: new TextDecoder(charset).decode(bytes, { stream: true }), charset };
}

/**
 * Decodes a response body. The encoding comes from, in order: a byte order mark, the Content-Type charset,
 * <meta> (HTML) or the XML declaration (XML), else UTF-8, with the detected legacy encoding for unlabeled
 * bytes that are not UTF-8 (except for kinds that are UTF-8 by definition). Bytes that prove to be UTF-8 (see
 * provenUtf8) are UTF-8 whatever legacy encoding is declared: pages re-saved as UTF-8 under their old declaration
 * (a `<meta charset=iso-8859-1>` kept by a conversion, a server's default charset) are common, and reading them
 * as declared turns every accented letter and quotation mark into mojibake. The BOM is removed. Labelled text is
 * decoded in streaming mode, so a character cut off by the byte cap is dropped rather than becoming U+FFFD.
 */
export function decodeText(bytes: Uint8Array, contentType: string | undefined, kind: ContentKind): { text: string; charset: string } {
  // An unknown or unsupported charset counts as none, whatever else declares one.
  const transport = encodingOf(parseContentType(contentType)?.parameters.get("charset"));
  const declared =
    (kind === "html"
      ? htmlEncoding(bytes, transport)
      : kind === "xml"
        ? encodingOf(sniffEncoding(bytes, { xml: true, defaultEncoding: UNDECLARED, ...(transport && { transportLayerEncodingLabel: transport }) }))
        : (bomEncoding(bytes) ?? transport)) ?? (UTF8_BY_SPEC.has(kind) ? "utf-8" : undefined);
  if (!declared) return decodeUnlabeled(bytes);
  if (declared !== "utf-8" && !UTF16.has(declared)) {
    const text = provenUtf8(bytes);
    if (text !== undefined) return { text, charset: "utf-8" };
  }
  return { text: new TextDecoder(declared).decode(bytes, { stream: true }), charset: declared };
}
