import { fail, ok } from "@edge-web/shared";
import { decodeText } from "../../extract/decode-text.ts";
import { escapeInline, escapeText } from "../../extract/markdown-syntax.ts";
import { parseMarkup } from "../../extract/parse-markup.ts";
import { oneLine } from "../../extract/whitespace.ts";
import { latin1Prefix } from "../../sniff/latin1-prefix.ts";
import { mediaType } from "../../sniff/media-type.ts";
import type { DocumentConverter } from "./document-converter.ts";
import { documentMarkdown } from "./document-markdown.ts";

const MIME = "message/rfc822";

/** How far into the file the header block must have ended, and how deep multiparts are followed. */
const MAX_HEADER_BYTES = 64 * 1024;
const MAX_DEPTH = 8;

interface Part {
  headers: Map<string, string>;
  body: Buffer;
}

/** The header block and the body after its blank line; header names lowercase, folded lines unfolded. */
function splitPart(raw: Buffer): Part {
  const text = raw.toString("latin1");
  const match = /\r?\n\r?\n/.exec(text);
  const end = match ? match.index : text.length;
  const headers = new Map<string, string>();
  for (const line of text.slice(0, end).replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!headers.has(name)) headers.set(name, line.slice(colon + 1).trim());
  }
  return { headers, body: raw.subarray(match ? end + match[0].length : raw.length) };
}

/** Whether the bytes open with a mail header block: header lines only, a From and a Date or Subject among them. */
function isMessage(bytes: Uint8Array): boolean {
  const head = latin1Prefix(bytes, MAX_HEADER_BYTES);
  const end = /\r?\n\r?\n/.exec(head)?.index;
  if (end === undefined) return false;
  const lines = head.slice(0, end).split(/\r?\n/);
  if (!lines.every((line) => /^[\t ]/.test(line) || /^[!-9;-~]+:/.test(line))) return false;
  const names = new Set(lines.map((line) => line.slice(0, line.indexOf(":")).toLowerCase()));
  return names.has("from") && (names.has("date") || names.has("subject"));
}

/** A header parameter (charset, boundary, name), quoted or not. */
function parameter(value: string | undefined, name: string): string | undefined {
  const match = new RegExp(`(?:^|;)\\s*${name}\\*?=\\s*(?:"([^"]*)"|([^;\\s]*))`, "i").exec(value ?? "");
  return match ? (match[1] ?? match[2]) : undefined;
}

/** Quoted-printable's =XX escapes undone, one character per byte. */
const unquote = (text: string) => text.replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

/** RFC 2047 encoded words (=?charset?B|Q?…?=) in a header, decoded. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_, charset: string, encoding: string, data: string) => {
      const bytes = encoding.toUpperCase() === "B" ? Buffer.from(data, "base64") : Buffer.from(unquote(data.replace(/_/g, " ")), "latin1");
      return decodeText(bytes, `text/plain; charset=${charset}`, "text").text;
    });
}

/** A part's body as bytes, its transfer encoding undone. */
function decodedBody(part: Part): Buffer {
  const encoding = (part.headers.get("content-transfer-encoding") ?? "").toLowerCase();
  if (encoding === "base64") return Buffer.from(part.body.toString("latin1").replace(/[^A-Za-z0-9+/=]/g, ""), "base64");
  if (encoding === "quoted-printable") {
    return Buffer.from(unquote(part.body.toString("latin1").replace(/=\r?\n/g, "")), "latin1");
  }
  return part.body;
}

/** The message's leaf parts in order: multiparts opened (to MAX_DEPTH), an attached message kept whole. */
function leaves(part: Part, depth = 0): Part[] {
  const type = mediaType(part.headers.get("content-type"));
  const boundary = parameter(part.headers.get("content-type"), "boundary");
  if (!type.startsWith("multipart/") || !boundary || depth >= MAX_DEPTH) return [part];
  const text = part.body.toString("latin1");
  const delimiter = `--${boundary}`;
  const pieces = text.split(new RegExp(`\\r?\\n?${delimiter.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?:--)?[ \\t]*\\r?\\n?`));
  // Before the first delimiter is the preamble, after the last the epilogue.
  return pieces.slice(1, -1).flatMap((piece) => leaves(splitPart(Buffer.from(piece, "latin1")), depth + 1));
}

const isAttachment = (part: Part) => /^attachment/i.test(part.headers.get("content-disposition") ?? "") || parameter(part.headers.get("content-disposition"), "filename") !== undefined;

/**
 * E-mail messages (.eml, message/rfc822): the subject as the title and heading, who sent it to whom and
 * when, the text body (the plain-text alternative, else the HTML one through the page renderer), then the
 * attachments by name, type and size. Encoded words, transfer encodings and charsets are decoded.
 */
export const emlConverter: DocumentConverter = {
  format: "EML",
  mimes: [MIME],
  extensions: ["eml"],
  matches: ({ bytes }) => isMessage(bytes),
  async convert(bytes) {
    const message = splitPart(Buffer.from(bytes));
    if (message.headers.size === 0) return fail("CONVERT_FAILED", "The file has no mail headers; it is not an e-mail message.");
    const header = (name: string) => oneLine(decodeWords(message.headers.get(name) ?? ""));
    const subject = header("subject");
    const parts = leaves(message);
    const bodies = parts.filter((part) => !isAttachment(part));
    // The part's Content-Type names its charset; without one the text is read as unlabeled text is.
    const textOf = (part: Part) => decodeText(decodedBody(part), part.headers.get("content-type"), "text").text;
    const typeOf = (part: Part) => mediaType(part.headers.get("content-type")) || "text/plain";
    const plain = bodies.find((part) => typeOf(part) === "text/plain");
    const html = bodies.find((part) => typeOf(part) === "text/html");
    const body = plain
      ? escapeText(textOf(plain))
      : html
        ? documentMarkdown(parseMarkup(textOf(html)).children)
        : "";
    const facts = ["from", "to", "cc", "date"].flatMap((name) => {
      const value = header(name);
      return value ? [`**${name === "cc" ? "Cc" : name[0]!.toUpperCase() + name.slice(1)}:** ${escapeInline(value)}`] : [];
    });
    const attachments = parts.filter(isAttachment).map((part) => {
      const disposition = part.headers.get("content-disposition");
      const name = decodeWords(parameter(disposition, "filename") ?? parameter(part.headers.get("content-type"), "name") ?? "unnamed");
      const type = mediaType(part.headers.get("content-type")) || "application/octet-stream";
      return `- ${escapeInline(name)} (${escapeInline(type)}, ${decodedBody(part).length} bytes)`;
    });
    const content = [
      subject ? `# ${escapeInline(subject)}` : "",
      facts.join("  \n"),
      body,
      attachments.length > 0 ? `## Attachments\n\n${attachments.join("\n")}` : "",
    ]
      .filter(Boolean)
      .join("\n\n");
    return ok({ provider: "eml", contentType: MIME, content, truncated: false, ...(subject && { title: subject }) });
  },
};
