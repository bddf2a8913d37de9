import { fail, ok } from "@edge-web/shared";
import PostalMime, { decodeWords, type Email } from "postal-mime";
import { errorReason } from "../../error-reason.ts";
import { escapeInline, escapeText } from "../../extract/markdown-syntax.ts";
import { parseHtml } from "../../extract/parse-html.ts";
import { oneLine } from "../../extract/whitespace.ts";
import { latin1Prefix } from "../../sniff/latin1-prefix.ts";
import type { BytesConverter } from "./document-converter.ts";
import { documentMarkdown } from "./document-markdown.ts";

const MIME = "message/rfc822";

/** How far into the file the header block must have ended for the bytes to be taken for a message by their content. */
const MAX_HEADER_BYTES = 64 * 1024;
/** How deep multiparts are followed; a message nested deeper is read for its headers alone. */
const MAX_DEPTH = 8;

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

/** The header block alone: a message whose body is past reading still has its headers read. */
function headerBlock(bytes: Uint8Array): Uint8Array {
  const match = /\r?\n\r?\n/.exec(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1"));
  return bytes.subarray(0, match ? match.index + match[0].length : bytes.length);
}

const isDepthError = (error: unknown) => (error as { code?: unknown }).code === "EMAXNESTINGDEPTH";

/** The parsed message; attached messages stay attachments (listed, not read into the body). */
async function parseMessage(bytes: Uint8Array): Promise<Email> {
  const parse = (raw: Uint8Array) => PostalMime.parse(raw, { maxNestingDepth: MAX_DEPTH, forceRfc822Attachments: true });
  try {
    return await parse(bytes);
  } catch (error) {
    if (!isDepthError(error)) throw error;
    return parse(headerBlock(bytes));
  }
}

/** A header's first value, encoded words decoded, on one line: a value cannot break out of the line it is written on. */
function headerText(email: Email, name: string): string {
  const value = email.headers.find(({ key }) => key === name)?.value;
  return value ? oneLine(decodeWords(value)) : "";
}

const FACTS: [string, string][] = [
  ["from", "From"],
  ["to", "To"],
  ["cc", "Cc"],
  ["date", "Date"],
];

/**
 * E-mail messages (.eml, message/rfc822), parsed by postal-mime: the subject as the title and heading, who sent
 * it to whom and when, the text body (the plain-text alternative, else the HTML one through the page renderer),
 * then the attachments by name, type and size. Header values and names are escaped onto one line each, so they
 * cannot forge Markdown structure.
 */
export const emlConverter: BytesConverter = {
  reads: "bytes",
  format: "EML",
  mimes: [MIME],
  extensions: ["eml"],
  matches: isMessage,
  async convert(bytes) {
    let email: Email;
    try {
      email = await parseMessage(bytes);
    } catch (error) {
      return fail("CONVERT_FAILED", `The e-mail message could not be read: ${errorReason(error)}.`);
    }
    if (email.headers.length === 0) return fail("CONVERT_FAILED", "The file has no mail headers; it is not an e-mail message.");
    const subject = oneLine(email.subject ?? "");
    const body = email.text ? escapeText(email.text) : email.html ? documentMarkdown(parseHtml(email.html).children) : "";
    const facts = FACTS.flatMap(([name, label]) => {
      const value = headerText(email, name);
      return value ? [`**${label}:** ${escapeInline(value)}`] : [];
    });
    // A part is listed when it says it is an attachment or names a file; unnamed inline parts (a logo in the HTML) are not.
    const attachments = email.attachments
      .filter(({ disposition, filename }) => disposition === "attachment" || filename !== null)
      .map(({ filename, mimeType, content }) => {
        const name = oneLine(filename ?? "") || "unnamed";
        const type = oneLine(mimeType) || "application/octet-stream";
        const size = typeof content === "string" ? Buffer.byteLength(content) : content.byteLength;
        return `- ${escapeInline(name)} (${escapeInline(type)}, ${size} bytes)`;
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
