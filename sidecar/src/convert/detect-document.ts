import { failWith, ok, type Result } from "@edge-web/shared";
import { detectContentType } from "../extract/detect-type.ts";
import type { ConvertCode, DocumentConverter } from "./document-converter.ts";
import { DOCUMENT_CONVERTERS } from "./document-converters.ts";
import type { TextType } from "./text-document.ts";
import { openZipArchive } from "./zip-archive.ts";

export interface DocumentHints {
  contentType?: string;
  fileName?: string;
  url?: string;
}

export type DetectedDocument = { type: "document"; converter: DocumentConverter } | ({ type: "text" } & TextType);

const SUPPORTED = "convert_content converts PDF, DOCX, XLSX, ODS and PPTX documents and HTML, text, Markdown, CSV, JSON, XML and YAML files";

/** Containers whose parts say what they hold, for naming the formats that are not read. */
const ODF_NAMES: [string, string][] = [
  ["application/epub+zip", "an EPUB e-book"],
  ["application/vnd.oasis.opendocument.text", "an OpenDocument text document (ODT)"],
  ["application/vnd.oasis.opendocument.presentation", "an OpenDocument presentation (ODP)"],
  ["application/vnd.oasis.opendocument.", "an OpenDocument file"],
];

function startsWith(bytes: Uint8Array, signature: string, offset = 0): boolean {
  return Array.from(signature).every((char, i) => bytes[offset + i] === char.charCodeAt(0));
}

/** The lowercase extension of the file name, else of the URL's path; "" when there is none. */
function extensionOf(hints: DocumentHints): string {
  let name = hints.fileName;
  if (name === undefined && hints.url !== undefined) {
    try {
      name = decodeURIComponent(new URL(hints.url).pathname);
    } catch {
      name = undefined;
    }
  }
  const base = (name ?? "").split("/").pop() ?? "";
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : "";
}

const unsupported = (what: string) => failWith<ConvertCode>("CONVERT_FAILED", `This file is ${what}, which cannot be converted: ${SUPPORTED}.`, { fault: "unsupported-type" });

/** What a ZIP archive no converter took is: by ODF's mimetype entry (first, stored), else just an archive. */
function zipName(bytes: Uint8Array): string {
  const found = ODF_NAMES.find(([mime]) => startsWith(bytes, `mimetype${mime}`, 30));
  return found ? found[1] : "a ZIP archive that is not an Office document";
}

/**
 * Which converter reads the bytes: what the bytes show first (a PDF header, the parts of a ZIP archive),
 * then the Content-Type (a document type, or a text type for fetch_content's handlers), then the file
 * extension; other bytes go to fetch_content's type detection, which finds the text formats and names the
 * binary ones.
 */
export function detectDocument(bytes: Uint8Array, hints: DocumentHints, maxUnzippedBytes: number): Result<DetectedDocument, ConvertCode> {
  const isZip = startsWith(bytes, "PK\x03\x04") || startsWith(bytes, "PK\x05\x06");
  const archive = isZip ? openZipArchive(bytes, maxUnzippedBytes) : undefined;
  if (archive && !archive.ok) return archive;
  const shown = DOCUMENT_CONVERTERS.find((converter) => converter.matches({ bytes, ...(archive && { archive: archive.value }) }));
  if (shown) return ok({ type: "document", converter: shown });
  if (isZip) return unsupported(zipName(bytes));
  if (startsWith(bytes, "\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1")) {
    return unsupported("a legacy Microsoft Office file (.doc, .xls or .ppt) or a password-protected Office document; save it as DOCX, XLSX or PPTX without a password");
  }
  if (startsWith(bytes, "{\\rtf")) return unsupported("an RTF document");

  const mime = hints.contentType?.split(/[;,]/)[0]?.trim().toLowerCase() ?? "";
  const claimedByType = mime === "" ? undefined : DOCUMENT_CONVERTERS.find((converter) => converter.mimes.includes(mime));
  if (claimedByType) return ok({ type: "document", converter: claimedByType });

  const url = hints.fileName !== undefined ? `file:///${encodeURIComponent(hints.fileName)}` : (hints.url ?? "");
  const type = detectContentType({ ...(hints.contentType !== undefined && { contentType: hints.contentType }), url, bytes });
  // The type found is the header's own only when the header names a text type. Such a header wins over the
  // extension: a sign-in page served as text/html from …/paper.pdf is that page, not a broken PDF.
  const textByHeader = type.ok && mime !== "" && type.mime === mime;
  const extension = extensionOf(hints);
  const claimedByExtension = textByHeader || extension === "" ? undefined : DOCUMENT_CONVERTERS.find((converter) => converter.extensions.includes(extension));
  if (claimedByExtension) return ok({ type: "document", converter: claimedByExtension });
  if (type.ok) return ok({ type: "text", kind: type.kind, mime: type.mime, ...(type.language && { language: type.language }) });
  return unsupported(mime && mime !== "application/octet-stream" ? `of type ${mime}` : extension ? `a .${extension} file` : "binary data of a format that was not recognised");
}
